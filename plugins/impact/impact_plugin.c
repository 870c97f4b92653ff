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
} impact_voice;

typedef struct impact_state {
  double velocity_max, velocity_curve;
  uint64_t cap_hits_retired; /* Newton cap hits of voices since reset */
} impact_state;

static impact_voice*
voice(instrument* in, int v)
{
  return (impact_voice*)instrument_voice(in, v);
}

static impact_state*
state(instrument* in)
{
  return (impact_state*)in->user;
}

static void
voice_init(instrument* in, int v)
{
  modal_init(&voice(in, v)->object, in->host.sample_rate);
  impact_init(&voice(in, v)->contact, in->host.sample_rate);
}

static modal_object*
voice_object(instrument* in, int v)
{
  return &voice(in, v)->object;
}

static void
controls(instrument* in)
{
  const float* c = in->values;
  const hunt_crossley law = {c[IMPACT_STIFFNESS], c[IMPACT_ALPHA],
                             c[IMPACT_MU]};
  state(in)->velocity_max = c[IMPACT_VELOCITY_MAX];
  state(in)->velocity_curve = c[IMPACT_VELOCITY_CURVE];
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    impact_set_law(&voice(in, v)->contact, law);
    impact_set_hammer(&voice(in, v)->contact, c[IMPACT_HAMMER_MASS] * 1e-3,
                      c[IMPACT_EXT_FORCE]);
  }
}

static void
note_on(instrument* in, int v, int velocity, bool fresh)
{
  (void)fresh; /* a ringing object is struck as it is ([ch8] fig 8.10a) */
  const impact_state* s = state(in);
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

static bool
busy(instrument* in, int v)
{
  return impact_is_active(&voice(in, v)->contact);
}

static bool
finite(instrument* in, int v)
{
  return impact_is_finite(&voice(in, v)->contact) &&
         modal_is_finite(&voice(in, v)->object);
}

static void
reset(instrument* in, int v)
{
  impact* im = &voice(in, v)->contact;
  state(in)->cap_hits_retired += im->stats.cap_hits;
  im->stats.cap_hits = 0;
  impact_reset(im, &voice(in, v)->object);
}

static void
object_changed(instrument* in, int v)
{
  impact_object_changed(&voice(in, v)->contact);
}

static void
meters(instrument* in)
{
  float m[5] = {0, 0, 0, 0, 0};
  uint64_t cap_hits = state(in)->cap_hits_retired;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    cap_hits += voice(in, v)->contact.stats.cap_hits;
  if (in->last_started >= 0) {
    const impact_contact* c = &voice(in, in->last_started)->contact.last;
    m[0] = (float)c->impact_velocity;
    m[1] = (float)c->rebound_velocity;
    m[2] = (float)(c->contact_time * 1e3);
    m[3] = (float)c->peak_force;
  }
  m[4] = (float)cap_hits;
  for (int i = 0; i < 5; ++i)
    if (in->ports[IMPACT_IMPACT_VELOCITY + i])
      *in->ports[IMPACT_IMPACT_VELOCITY + i] = m[i];
}

const instrument_class impact_class = {
    INSTRUMENT_DESCRIPTOR(IMPACT_URI),
    &impact_info,
    IMPACT_OBJECT,
    IMPACT_OUT_L,
    IMPACT_OUT_R,
    IMPACT_MIDI_IN,
    sizeof(impact_voice),
    sizeof(impact_state),
    voice_init,
    voice_object,
    controls,
    note_on,
    note_off,
    NULL, /* no expression: a strike is over when it starts */
    render,
    busy,
    finite,
    reset,
    object_changed,
    meters,
};
