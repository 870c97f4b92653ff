/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:friction: an exciter rubbing its object through the
 * elasto-plastic bristles (dsp/friction), one per voice.  Note-on sets the
 * exciter down on a hand at rest, which then accelerates to the stroke's
 * speed; the MIDI velocity plays a share of the stroke (speed and normal
 * force together, instrument_expression()).  Note-off lifts it (the
 * normal force glides to zero in a few milliseconds) and the object rings
 * out.  Channel or polyphonic pressure p (0..1) scales the normal force by
 * 1 + p, CC1 value c the speed (or force) by 1 + c / 127: at rest they
 * play the set values.  The rest is common (common/instrument.h).
 */
#include "friction.h"
#include "friction_ports.h"
#include "instrument.h"

#include <lv2/core/lv2.h>

typedef struct friction_voice {
  friction contact;
  modal_object object;
  modal_object body; /* the exciter's own modes (exciter_ports.h) */
  bool lifted;
} friction_voice;

typedef struct friction_settings {
  double normal_force, bow_velocity, ext_force;
  double beta;
} friction_settings;

INSTRUMENT_ACCESSORS(friction_voice, friction_settings)

/* the player's controls as the voice feels them */
static void
drive_voice(instrument* in, int v)
{
  const friction_settings* s = settings(in);
  friction_voice* fv = voice(in, v);
  const expression e = instrument_expression(in, v);
  friction_set_motion(&fv->contact, s->bow_velocity * e.gesture * e.wheel,
                      s->ext_force * e.gesture * e.wheel);
  friction_set_normal_force(
      &fv->contact, fv->lifted ? 0.0 : s->normal_force * e.gesture * e.press);
}

static void
voice_init(instrument* in, int v)
{
  friction_voice* fv = voice(in, v);
  modal_init(&fv->object, in->host.sample_rate);
  modal_init(&fv->body, in->host.sample_rate);
  modal_set_width(&fv->body, 0.0); /* heard where it touches */
  friction_init(&fv->contact, in->host.sample_rate, 0x51D7u + (uint64_t)v);
  fv->lifted = true;
}

static void
controls(instrument* in)
{
  const float* c = in->values;
  friction_settings* s = settings(in);
  const friction_law law = {
      c[FRICTION_SIGMA0],
      c[FRICTION_SIGMA1],
      c[FRICTION_SIGMA2],
      c[FRICTION_SIGMA3],
      c[FRICTION_MU_S],
      c[FRICTION_MU_D],
      1e-3 * c[FRICTION_STRIBECK_VELOCITY],
      c[FRICTION_BREAKAWAY],
  };
  const friction_drive drive = c[FRICTION_DRIVE_MODE] > 0.5f
                                   ? FRICTION_DRIVE_FORCE
                                   : FRICTION_DRIVE_VELOCITY;
  s->normal_force = c[FRICTION_NORMAL_FORCE];
  s->bow_velocity = c[FRICTION_BOW_VELOCITY];
  s->ext_force = c[FRICTION_EXT_FORCE];
  in->velocity_floor = c[FRICTION_VELOCITY_FLOOR];
  in->velocity_curve = c[FRICTION_VELOCITY_CURVE];
  const bool new_beta = c[FRICTION_NOISE_BETA] != s->beta;
  s->beta = c[FRICTION_NOISE_BETA];
  const double mass = 1e-3 * c[FRICTION_EXCITER_MASS];
  const double level = c[FRICTION_EXCITER + EXCITER_LEVEL];
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    friction_voice* fv = voice(in, v);
    friction* fr = &fv->contact;
    friction_set_law(fr, law);
    friction_set_exciter(fr, mass, drive);
    if (exciter_from_ports(&fv->body, c + FRICTION_EXCITER, mass) ||
        level != fr->body_level)
      friction_set_body(fr, &fv->body, level);
    friction_set_grip(fr, c[FRICTION_GRIP]);
    if (new_beta)
      friction_set_noise(fr, s->beta);
    drive_voice(in, v);
  }
}

static void
note_on(instrument* in, int v, int velocity, bool fresh)
{
  (void)velocity; /* in the expression */
  (void)fresh;
  voice(in, v)->lifted = false;
  drive_voice(in, v);
}

static void
note_off(instrument* in, int v)
{
  voice(in, v)->lifted = true;
  drive_voice(in, v);
}

static void
render(instrument* in, int v, float* l, float* r, int frames)
{
  friction_voice* fv = voice(in, v);
  friction_process(&fv->contact, &fv->object, frames, l, r, 1.0);
}

static double
unrest(instrument* in, int v, bool* driven)
{
  const friction* fr = &voice(in, v)->contact;
  *driven = fr->normal_force > 0.0 || fr->fn > 0.0 || fr->force != 0.0;
  double reach, speed;
  const modal_object* o = &voice(in, v)->object;
  modal_bounds(o, &reach, &speed);
  return o->pickup_bound * speed + friction_body_unrest(fr);
}

static bool
settle(instrument* in, int v)
{
  (void)in;
  (void)v;
  return false; /* the exciter is lifted: nothing rests on the object */
}

static bool
finite(instrument* in, int v)
{
  return friction_is_finite(&voice(in, v)->contact);
}

static void
reset(instrument* in, int v)
{
  friction_voice* fv = voice(in, v);
  friction_reset(&fv->contact); /* and the body */
  modal_reset(&fv->object);
  fv->lifted = true;
  drive_voice(in, v);
}

static void
object_changed(instrument* in, int v)
{
  friction_object_changed(&voice(in, v)->contact);
}

/* the means over the voice's last rendered stretch */
static void
read_meters(instrument* in, int v, double* m)
{
  const friction* fr = &voice(in, v)->contact;
  m[0] = fr->mean_force;
  m[1] = fr->mean_slip;
}

static const instrument_meter meters[] = {
    {FRICTION_FORCE, true},
    {FRICTION_SLIP_VELOCITY, true},
};

const instrument_class friction_class = {
    .descriptor = INSTRUMENT_DESCRIPTOR(FRICTION_URI),
    .info = &friction_info,
    INSTRUMENT_PORTS(FRICTION),
    .meters = meters,
    .n_meters = sizeof(meters) / sizeof(meters[0]),
    INSTRUMENT_VOICE_LAYOUT(friction_voice, friction_settings),
    INSTRUMENT_CALLBACKS,
    .expression = drive_voice,
};
