/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:rolling: a ball rolling over its object (dsp/rolling), one
 * per voice.  Note-on puts a ball down at rest (on a fresh voice) and sets
 * it rolling at the speed times the MIDI velocity / 127; note-off lets it
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
  bool stopping;                 /* the key is up */
  double force_sum, contact_sum; /* over the block, for the meters */
  int frames;
} rolling_voice;

typedef struct rolling_state {
  double speed, stop_time, mass, gravity;
  uint64_t cap_hits_retired;
} rolling_state;

static rolling_voice*
voice(instrument* in, int v)
{
  return (rolling_voice*)instrument_voice(in, v);
}

static rolling_state*
state(instrument* in)
{
  return (rolling_state*)in->user;
}

/* the player's controls as the ball feels them */
static void
drive_voice(instrument* in, int v)
{
  const rolling_state* s = state(in);
  rolling_voice* rv = voice(in, v);
  const expression e = instrument_expression(in, v);
  rolling_set_ball(&rv->contact, s->mass, rv->contact.ground.radius,
                   s->mass * s->gravity * e.press);
  if (rv->stopping)
    rolling_set_speed(&rv->contact, 0.0, s->stop_time);
  else
    rolling_set_speed(&rv->contact, s->speed * e.speed, 0.0);
}

static void
voice_init(instrument* in, int v)
{
  rolling_voice* rv = voice(in, v);
  modal_init(&rv->object, in->host.sample_rate);
  rolling_init(&rv->contact, in->host.sample_rate, 0xB0A1u + (uint64_t)v);
  rv->stopping = true;
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
  rolling_state* s = state(in);
  s->speed = c[ROLLING_SPEED];
  s->stop_time = c[ROLLING_STOP_TIME];
  s->mass = c[ROLLING_BALL_MASS];
  s->gravity = c[ROLLING_GRAVITY];
  const hunt_crossley law = {c[ROLLING_STIFFNESS], c[ROLLING_ALPHA],
                             c[ROLLING_MU]};
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    rolling* r = &voice(in, v)->contact;
    rolling_set_law(r, law);
    rolling_set_ball(r, s->mass, 1e-3 * c[ROLLING_BALL_RADIUS], r->weight);
    rolling_set_surface(r, c[ROLLING_ROUGHNESS],
                        1e-6 * c[ROLLING_SURFACE_DEPTH]);
    rolling_set_asymmetry(r, c[ROLLING_ASYMMETRY]);
    drive_voice(in, v);
  }
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
  rv->force_sum += rv->contact.mean_force * frames;
  rv->contact_sum += rv->contact.contact_fraction * frames;
  rv->frames += frames;
}

static bool
busy(instrument* in, int v)
{
  const rolling* r = &voice(in, v)->contact;
  return r->speed > 0.0 || r->target > 0.0;
}

static bool
finite(instrument* in, int v)
{
  return rolling_is_finite(&voice(in, v)->contact) &&
         modal_is_finite(&voice(in, v)->object);
}

static void
reset(instrument* in, int v)
{
  rolling_voice* rv = voice(in, v);
  state(in)->cap_hits_retired += rv->contact.stats.cap_hits;
  rv->contact.stats.cap_hits = 0;
  rolling_reset(&rv->contact, &rv->object);
  rv->stopping = true;
  drive_voice(in, v);
}

static void
object_changed(instrument* in, int v)
{
  rolling_object_changed(&voice(in, v)->contact);
}

static void
meters(instrument* in)
{
  float m[3] = {0, 0, 0};
  uint64_t cap_hits = state(in)->cap_hits_retired;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    cap_hits += voice(in, v)->contact.stats.cap_hits;
  if (in->last_started >= 0) {
    const rolling_voice* rv = voice(in, in->last_started);
    if (rv->frames > 0) {
      m[0] = (float)(rv->force_sum / rv->frames);
      m[1] = (float)(rv->contact_sum / rv->frames);
    }
  }
  m[2] = (float)cap_hits;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    voice(in, v)->force_sum = voice(in, v)->contact_sum = 0.0;
    voice(in, v)->frames = 0;
  }
  for (int i = 0; i < 3; ++i)
    if (in->ports[ROLLING_CONTACT_FORCE + i])
      *in->ports[ROLLING_CONTACT_FORCE + i] = m[i];
}

const instrument_class rolling_class = {
    INSTRUMENT_DESCRIPTOR(ROLLING_URI),
    &rolling_info,
    ROLLING_OBJECT,
    ROLLING_OUT_L,
    ROLLING_OUT_R,
    ROLLING_MIDI_IN,
    sizeof(rolling_voice),
    sizeof(rolling_state),
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
