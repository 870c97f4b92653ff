/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:friction: an exciter rubbing its object through the
 * elasto-plastic bristles (dsp/friction), one per voice.  Note-on puts the
 * exciter down (MIDI velocity scales the bow velocity or the external
 * force), note-off lifts it (the normal force glides to zero in a few
 * milliseconds) and the object rings out.  Channel or polyphonic pressure
 * p (0..1) scales the normal force by 1 + p, CC1 value c the speed (or
 * force) by 1 + c / 127: at rest they play the set values.  The rest is
 * common (common/instrument.h).
 */
#include "friction.h"
#include "friction_ports.h"
#include "instrument.h"

#include <lv2/core/lv2.h>

typedef struct friction_voice {
  friction contact;
  modal_object object;
  bool lifted;
  double force_sum, slip_sum; /* over the block, for the meters */
  int frames;
} friction_voice;

typedef struct friction_state {
  double normal_force, bow_velocity, ext_force;
  double beta;
  uint64_t cap_hits_retired;
} friction_state;

static friction_voice*
voice(instrument* in, int v)
{
  return (friction_voice*)instrument_voice(in, v);
}

static friction_state*
state(instrument* in)
{
  return (friction_state*)in->user;
}

/* the player's controls as the voice feels them */
static void
drive_voice(instrument* in, int v)
{
  const friction_state* s = state(in);
  friction_voice* fv = voice(in, v);
  const expression e = instrument_expression(in, v);
  friction_set_motion(&fv->contact, s->bow_velocity * e.speed,
                      s->ext_force * e.speed);
  friction_set_normal_force(&fv->contact,
                            fv->lifted ? 0.0 : s->normal_force * e.press);
}

static void
voice_init(instrument* in, int v)
{
  friction_voice* fv = voice(in, v);
  modal_init(&fv->object, in->host.sample_rate);
  friction_init(&fv->contact, in->host.sample_rate, 0x51D7u + (uint64_t)v);
  fv->lifted = true;
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
  friction_state* s = state(in);
  const elasto_plastic law = {
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
  const bool new_beta = c[FRICTION_NOISE_BETA] != s->beta;
  s->beta = c[FRICTION_NOISE_BETA];
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    friction* fr = &voice(in, v)->contact;
    friction_set_law(fr, law);
    friction_set_exciter(fr, 1e-3 * c[FRICTION_EXCITER_MASS], drive);
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
  fv->force_sum += fv->contact.mean_force * frames;
  fv->slip_sum += fv->contact.mean_slip * frames;
  fv->frames += frames;
}

static bool
busy(instrument* in, int v)
{
  const friction* fr = &voice(in, v)->contact;
  return fr->normal_force > 0.0 || fr->fn > 0.0 || fr->force != 0.0;
}

static bool
finite(instrument* in, int v)
{
  return friction_is_finite(&voice(in, v)->contact) &&
         modal_is_finite(&voice(in, v)->object);
}

static void
reset(instrument* in, int v)
{
  friction_voice* fv = voice(in, v);
  state(in)->cap_hits_retired += fv->contact.stats.cap_hits;
  fv->contact.stats.cap_hits = 0;
  friction_reset(&fv->contact);
  modal_reset(&fv->object);
  fv->lifted = true;
  drive_voice(in, v);
}

static void
object_changed(instrument* in, int v)
{
  friction_object_changed(&voice(in, v)->contact);
}

static void
meters(instrument* in)
{
  float m[3] = {0, 0, 0};
  uint64_t cap_hits = state(in)->cap_hits_retired;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    cap_hits += voice(in, v)->contact.stats.cap_hits;
  if (in->last_started >= 0) {
    friction_voice* fv = voice(in, in->last_started);
    if (fv->frames > 0) {
      m[0] = (float)(fv->force_sum / fv->frames);
      m[1] = (float)(fv->slip_sum / fv->frames);
    }
  }
  m[2] = (float)cap_hits;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    voice(in, v)->force_sum = voice(in, v)->slip_sum = 0.0;
    voice(in, v)->frames = 0;
  }
  for (int i = 0; i < 3; ++i)
    if (in->ports[FRICTION_FORCE + i])
      *in->ports[FRICTION_FORCE + i] = m[i];
}

const instrument_class friction_class = {
    INSTRUMENT_DESCRIPTOR(FRICTION_URI),
    &friction_info,
    FRICTION_OBJECT,
    FRICTION_OUT_L,
    FRICTION_OUT_R,
    FRICTION_MIDI_IN,
    sizeof(friction_voice),
    sizeof(friction_state),
    voice_init,
    voice_object,
    controls,
    note_on,
    note_off,
    drive_voice,
    render,
    busy,
    finite,
    reset,
    object_changed,
    meters,
};
