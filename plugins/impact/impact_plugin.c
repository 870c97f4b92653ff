/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:impact: a hammer (dsp/impact) per voice striking its object
 * (dsp/modal).  Note-on strikes with the velocity mapped to the impact
 * velocity; the rest is common to the instruments (common/instrument.h).
 */
#include "impact.h"
#include "impact_ports.h"
#include "instrument.h"

#include <lv2/core/lv2.h>

#include <math.h>

typedef struct impact_voice {
  impact contact;
  modal_object object;
  modal_object exciter; /* the hammer's own modes (exciter_ports.h) */
} impact_voice;

typedef struct impact_settings {
  double velocity_max, velocity_curve;
} impact_settings;

INSTRUMENT_ACCESSORS(impact_voice, impact_settings)

static void
voice_init(instrument* in, int v)
{
  impact_voice* iv = voice(in, v);
  modal_init(&iv->object, in->host.sample_rate);
  modal_init(&iv->exciter, in->host.sample_rate);
  modal_set_width(&iv->exciter, 0.0); /* heard where it touches */
  impact_init(&iv->contact, in->host.sample_rate);
  impact_set_exciter(&iv->contact, &iv->exciter, 1.0);
}

static void
controls(instrument* in)
{
  const float* c = in->values;
  const impact_law law = law_from_ports(c + IMPACT_LAW, c[IMPACT_STIFFNESS],
                                        c[IMPACT_ALPHA], c[IMPACT_MU]);
  settings(in)->velocity_max = c[IMPACT_VELOCITY_MAX];
  settings(in)->velocity_curve = c[IMPACT_VELOCITY_CURVE];
  const double mass = c[IMPACT_HAMMER_MASS] * 1e-3;
  const double level = c[IMPACT_EXCITER + EXCITER_LEVEL];
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    impact_voice* iv = voice(in, v);
    impact_set_law(&iv->contact, law);
    impact_set_hammer(&iv->contact, mass, c[IMPACT_EXT_FORCE]);
    if (exciter_from_ports(&iv->exciter, c + IMPACT_EXCITER, mass) ||
        level != iv->contact.exciter_level)
      impact_set_exciter(&iv->contact, &iv->exciter, level);
  }
}

static void
note_on(instrument* in, int v, int velocity, bool fresh)
{
  (void)fresh; /* a ringing object is struck as it is ([ch8] fig 8.10a) */
  const impact_settings* s = settings(in);
  const double v_in =
      s->velocity_max * pow(velocity / 127.0, s->velocity_curve);
  impact_strike(&voice(in, v)->contact, &voice(in, v)->object, v_in);
}

static void
note_off(instrument* in, int v)
{
  (void)in;
  (void)v; /* the object rings on (the damper is common) */
}

static void
render(instrument* in, int v, float* l, float* r, int frames)
{
  impact_process(&voice(in, v)->contact, &voice(in, v)->object, frames, l, r,
                 1.0);
}

static double
unrest(instrument* in, int v, bool* driven)
{
  const impact* im = &voice(in, v)->contact;
  /* a hammer still flying without a force to bring it to rest will strike
   * (or fly off, which takes it out of play) */
  *driven = impact_is_active(im) && im->ext_force == 0.0;
  const modal_object* o = &voice(in, v)->object;
  return o->pickup_bound * impact_unrest(im, o) + impact_exciter_unrest(im);
}

/* a hammer out of play (parked after it flew off) touches nothing: the
 * next note strikes where it lands */
static bool
touching(instrument* in, int v)
{
  return impact_is_active(&voice(in, v)->contact);
}

static bool
settle(instrument* in, int v)
{
  impact_voice* iv = voice(in, v);
  impact_settle(&iv->contact, &iv->object);
  return impact_is_active(&iv->contact); /* resting, pressed on the object */
}

static bool
finite(instrument* in, int v)
{
  return impact_is_finite(&voice(in, v)->contact);
}

static void
reset(instrument* in, int v)
{
  impact_reset(&voice(in, v)->contact, &voice(in, v)->object);
}

static void
object_changed(instrument* in, int v)
{
  impact_object_changed(&voice(in, v)->contact, &voice(in, v)->object);
}

/* the last completed contact of the voice */
static void
read_meters(instrument* in, int v, double* m)
{
  const impact_contact* c = &voice(in, v)->contact.last;
  m[0] = c->impact_velocity;
  m[1] = c->rebound_velocity;
  m[2] = c->contact_time * 1e3;
  m[3] = c->peak_force;
}

static const instrument_meter meters[] = {
    {IMPACT_V_IN, false},
    {IMPACT_V_OUT, false},
    {IMPACT_CONTACT_TIME, false},
    {IMPACT_PEAK_FORCE, false},
};

const instrument_class impact_class = {
    .descriptor = INSTRUMENT_DESCRIPTOR(IMPACT_URI),
    .info = &impact_info,
    INSTRUMENT_PORTS(IMPACT),
    .meters = meters,
    .n_meters = sizeof(meters) / sizeof(meters[0]),
    INSTRUMENT_VOICE_LAYOUT(impact_voice, impact_settings),
    INSTRUMENT_CALLBACKS,
    .expression = NULL, /* a strike is over when it starts */
    .strikes = true,
    .touching = touching,
};
