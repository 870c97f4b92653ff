/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:rolling: a ball rolling over its object (dsp/rolling), one
 * per voice.  Note-on puts a ball down at rest (on a fresh voice) and sets
 * it rolling at the speed times the velocity's share of the gesture
 * (velocity_floor, velocity_curve: instrument_expression()).  Velocity
 * plays the speed only, not the weight: while the ball stays on the
 * surface its force ripples by m v^2 c''(X), which the weight does not
 * enter, so a harder press only lets it roll faster before it skips
 * (pressure does that, below).  The curve is steep (2.5 by default): once
 * the patch's cut-off has passed the modes that carry the roll, its level
 * grows only as v^(beta - 1), while a note's level scatters by 2-3 dB
 * with the surface, so the top velocities need the larger speed ratios
 * (doc/rolling.md, "Every note louder than a softer one").  Note-off lets it
 * slow to a stop over the stop time, and it then rests on the object,
 * which rings out.  CC1 value c scales the speed by 1 + c / 127, channel
 * or polyphonic pressure p the weight by 1 + p: at rest they play the set
 * values.  The rest is common (common/instrument.h).
 */
#include "instrument.h"
#include "rolling.h"
#include "rolling_ports.h"

#include <lv2/core/lv2.h>

typedef struct rolling_voice {
  rolling contact;
  modal_object object;
  modal_object exciter; /* the ball's own modes (exciter_ports.h) */
  bool stopping;        /* the key is up */
} rolling_voice;

typedef struct rolling_settings {
  double speed, stop_time, mass, gravity;
} rolling_settings;

INSTRUMENT_ACCESSORS(rolling_voice, rolling_settings)

/* the player's controls as the ball feels them */
static void
drive_voice(instrument* in, int v)
{
  const rolling_settings* s = settings(in);
  rolling_voice* rv = voice(in, v);
  const expression e = instrument_expression(in, v);
  rolling_set_ball(&rv->contact, s->mass, rv->contact.ground.radius,
                   s->mass * s->gravity * e.press);
  if (rv->stopping)
    rolling_set_speed(&rv->contact, 0.0, s->stop_time);
  else
    rolling_set_speed(&rv->contact, s->speed * e.gesture * e.wheel, 0.0);
}

static void
voice_init(instrument* in, int v)
{
  rolling_voice* rv = voice(in, v);
  modal_init(&rv->object, in->host.sample_rate);
  modal_init(&rv->exciter, in->host.sample_rate);
  modal_set_width(&rv->exciter, 0.0); /* heard where it touches */
  rolling_init(&rv->contact, in->host.sample_rate, 0xB0A1u + (uint64_t)v);
  rolling_set_exciter(&rv->contact, &rv->exciter, 1.0);
  rv->stopping = true;
}

static void
controls(instrument* in)
{
  const float* c = in->values;
  rolling_settings* s = settings(in);
  s->speed = c[ROLLING_SPEED];
  s->stop_time = c[ROLLING_STOP_TIME];
  in->velocity_floor = c[ROLLING_VELOCITY_FLOOR];
  in->velocity_curve = c[ROLLING_VELOCITY_CURVE];
  s->mass = c[ROLLING_BALL_MASS];
  s->gravity = c[ROLLING_GRAVITY];
  const impact_law law = law_from_ports(c + ROLLING_LAW, c[ROLLING_STIFFNESS],
                                        c[ROLLING_ALPHA], c[ROLLING_MU]);
  const double level = c[ROLLING_EXCITER + EXCITER_LEVEL];
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    rolling_voice* rv = voice(in, v);
    rolling* r = &rv->contact;
    if (exciter_from_ports(&rv->exciter, c + ROLLING_EXCITER, s->mass) ||
        level != r->exciter_level)
      rolling_set_exciter(r, &rv->exciter, level);
    rolling_set_law(r, law);
    rolling_set_ball(r, s->mass, 1e-3 * c[ROLLING_BALL_RADIUS], r->weight);
    rolling_set_surface(r, c[ROLLING_ROUGHNESS],
                        1e-6 * c[ROLLING_SURFACE_DEPTH]);
    rolling_set_asymmetry(r, c[ROLLING_ASYMMETRY]);
    drive_voice(in, v);
  }
  instrument_set_path(in, (place_path)c[ROLLING_PATH + PATH_PATH],
                      c[ROLLING_PATH + PATH_LENGTH]);
}

static void
note_on(instrument* in, int v, int velocity, bool fresh)
{
  (void)velocity; /* in the expression */
  rolling_voice* rv = voice(in, v);
  rv->stopping = false;
  drive_voice(in, v);
  if (fresh)
    rolling_place(&rv->contact, &rv->object);
}

static void
note_off(instrument* in, int v)
{
  voice(in, v)->stopping = true;
  drive_voice(in, v);
}

static void
render(instrument* in, int v, float* l, float* r, int frames)
{
  rolling_voice* rv = voice(in, v);
  rolling_process(&rv->contact, &rv->object, frames, l, r, 1.0);
}

static double
unrest(instrument* in, int v, bool* driven)
{
  const rolling* r = &voice(in, v)->contact;
  *driven = r->speed > 0.0 || r->target > 0.0;
  const modal_object* o = &voice(in, v)->object;
  return o->pickup_bound * rolling_unrest(r, o) + rolling_exciter_unrest(r);
}

static bool
settle(instrument* in, int v)
{
  rolling_voice* rv = voice(in, v);
  rolling_settle(&rv->contact, &rv->object);
  return rv->contact.weight > 0.0; /* the ball lies on the object */
}

static bool
finite(instrument* in, int v)
{
  return rolling_is_finite(&voice(in, v)->contact);
}

static void
reset(instrument* in, int v)
{
  rolling_voice* rv = voice(in, v);
  rolling_reset(&rv->contact, &rv->object);
  rv->stopping = true;
  drive_voice(in, v);
}

static void
object_changed(instrument* in, int v)
{
  rolling_object_changed(&voice(in, v)->contact);
}

static double
travel(instrument* in, int v)
{
  return voice(in, v)->contact.distance;
}

/* the means over the voice's last rendered stretch */
static void
read_meters(instrument* in, int v, double* m)
{
  const rolling* r = &voice(in, v)->contact;
  m[0] = r->mean_force;
  m[1] = r->contact_fraction;
}

static const instrument_meter meters[] = {
    {ROLLING_CONTACT_FORCE, true},
    {ROLLING_CONTACT_FRACTION, true},
};

const instrument_class rolling_class = {
    .descriptor = INSTRUMENT_DESCRIPTOR(ROLLING_URI),
    .info = &rolling_info,
    INSTRUMENT_PORTS(ROLLING),
    .meters = meters,
    .n_meters = sizeof(meters) / sizeof(meters[0]),
    INSTRUMENT_VOICE_LAYOUT(rolling_voice, rolling_settings),
    INSTRUMENT_CALLBACKS,
    .expression = drive_voice,
    .travel = travel,
};
