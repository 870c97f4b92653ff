/* SPDX-License-Identifier: ISC */
/*
 * urn:contact:impact: the LV2 glue around dsp/impact.  run() reads the
 * controls, splits the block at MIDI events and lets each voice's hammer
 * and object run; the physics lives in dsp/.
 */
#include "controls.h"
#include "dsp_util.h"
#include "glue.h"
#include "impact.h"
#include "impact_ports.h"
#include "midi.h"
#include "object.h"
#include "voices.h"

#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/core/lv2_util.h>
#include <lv2/options/options.h>
#include <lv2/worker/worker.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
  POLYPHONY = 16,
  N_VOICES = POLYPHONY + 1, /* the spare lets a stolen voice fade */
  CHUNK = 256,              /* samples rendered per voice at a time */
};

/* A voice below this output level, its hammer out of play, is freed. */
static const double silence = 1e-6; /* -120 dBFS */
/* Fade of a stolen voice, and the time constant of gain changes. */
static const double steal_fade_s = 0.005;
static const double gain_smoothing_s = 0.005;

typedef struct impact_voice {
  impact contact;
  modal_object object;
} impact_voice;

typedef struct impact_plugin {
  float* ports[IMPACT_N_PORTS];
  float values[IMPACT_N_PORTS]; /* clamped control values */
  plugin_host host;
  input_report report;

  impact_voice* voices; /* N_VOICES, 64-byte aligned */
  voice_slot slots[N_VOICES];
  object_settings object;
  double velocity_max, velocity_curve;
  int last_struck; /* voice whose contacts the meters show, or -1 */
  uint32_t strikes;
  uint64_t cap_hits_retired; /* Newton cap hits of voices since reset */

  double bend; /* semitones */
  bool retune; /* sounding voices need object_tune() */
  bool sustain;
  int keys_down;

  double gain_now, gain_coeff;
  bool activated;    /* no run() since activate(): no gain glide yet */
  float rate_option; /* what options_get hands out */
  float scratch_l[CHUNK], scratch_r[CHUNK];
} impact_plugin;

/* ---- controls --------------------------------------------------------- */

static void
apply_controls(impact_plugin* p)
{
  const float* v = p->values;
  object_settings_read(&p->object, v + IMPACT_OBJECT);
  const hunt_crossley law = {v[IMPACT_STIFFNESS], v[IMPACT_ALPHA],
                             v[IMPACT_MU]};
  p->velocity_max = v[IMPACT_VELOCITY_MAX];
  p->velocity_curve = v[IMPACT_VELOCITY_CURVE];
  for (int i = 0; i < N_VOICES; ++i) {
    impact_set_law(&p->voices[i].contact, law);
    impact_set_hammer(&p->voices[i].contact, v[IMPACT_HAMMER_MASS] * 1e-3,
                      v[IMPACT_EXT_FORCE]);
  }
  p->retune = true;
}

static void
tune_voice(impact_plugin* p, int i)
{
  impact_voice* voice = &p->voices[i];
  object_tune(&p->object, &voice->object, p->slots[i].note, p->bend,
              p->slots[i].damped);
  impact_object_changed(&voice->contact);
}

static void
free_voice(impact_plugin* p, int i)
{
  impact_voice* voice = &p->voices[i];
  p->cap_hits_retired += voice->contact.stats.cap_hits;
  voice->contact.stats.cap_hits = 0;
  impact_reset(&voice->contact, &voice->object);
  p->slots[i].sounding = false;
  p->slots[i].fade = 1.0f;
}

/* ---- MIDI ------------------------------------------------------------- */

static void
set_damped(impact_plugin* p, int i, bool damped)
{
  if (p->slots[i].damped != damped) {
    p->slots[i].damped = damped;
    tune_voice(p, i);
  }
}

static void
note_on(impact_plugin* p, int note, int velocity)
{
  const int fade = (int)(steal_fade_s * p->host.sample_rate);
  int i;
  if (p->object.pitch_track) {
    i = voices_find(p->slots, N_VOICES, note);
    if (i < 0)
      i = voices_allocate(p->slots, N_VOICES, POLYPHONY, fade);
  } else {
    i = 0; /* one object for every note */
  }
  voice_slot* s = &p->slots[i];
  const bool fresh = !s->sounding || s->fade < 1.0f ||
                     (p->object.pitch_track && s->note != note);
  if (fresh) {
    free_voice(p, i);
    s->note = note;
    s->damped = false;
    tune_voice(p, i);
  } else {
    s->note = note;
    set_damped(p, i, false);
  }
  s->sounding = true;
  s->key_down = true;
  s->sustained = false;
  s->fade = 1.0f;
  s->level = 1.0f;
  s->started = ++p->strikes;
  const double v_in =
      p->velocity_max * pow(velocity / 127.0, p->velocity_curve);
  impact_strike(&p->voices[i].contact, &p->voices[i].object, v_in);
  p->last_struck = i;
}

static void
release(impact_plugin* p, int i)
{
  p->slots[i].key_down = false;
  if (!p->object.damper)
    return;
  if (p->sustain)
    p->slots[i].sustained = true;
  else
    set_damped(p, i, true);
}

static void
note_off(impact_plugin* p, int note)
{
  if (!p->object.pitch_track) {
    if (p->keys_down > 0 && --p->keys_down == 0 && p->slots[0].sounding)
      release(p, 0);
    return;
  }
  for (int i = 0; i < N_VOICES; ++i)
    if (p->slots[i].sounding && p->slots[i].key_down &&
        p->slots[i].note == note)
      release(p, i);
}

static void
all_notes_off(impact_plugin* p)
{
  p->keys_down = 0;
  for (int i = 0; i < N_VOICES; ++i)
    if (p->slots[i].sounding)
      release(p, i);
}

static void
control_change(impact_plugin* p, int controller, int value)
{
  switch (controller) {
  case 64: /* sustain pedal */
    p->sustain = value >= 64;
    if (!p->sustain)
      for (int i = 0; i < N_VOICES; ++i)
        if (p->slots[i].sounding && p->slots[i].sustained) {
          p->slots[i].sustained = false;
          set_damped(p, i, p->object.damper);
        }
    break;
  case 120: /* all sound off */
    for (int i = 0; i < N_VOICES; ++i)
      free_voice(p, i);
    break;
  case 121: /* reset all controllers */
    p->bend = 0.0;
    p->retune = true;
    control_change(p, 64, 0);
    break;
  case 123: /* all notes off */
    all_notes_off(p);
    break;
  default:
    break;
  }
}

static void
handle_midi(impact_plugin* p, const uint8_t* data, uint32_t size)
{
  midi_message m;
  if (!midi_parse(data, size, &m)) {
    p->report.bad_midi++;
    return;
  }
  switch (m.kind) {
  case MIDI_NOTE_ON:
    if (!p->object.pitch_track)
      ++p->keys_down;
    note_on(p, m.data1, m.data2);
    break;
  case MIDI_NOTE_OFF:
    note_off(p, m.data1);
    break;
  case MIDI_CONTROL:
    control_change(p, m.data1, m.data2);
    break;
  case MIDI_PITCH_BEND:
    p->bend = m.bend / 8192.0 * p->object.bend_range;
    p->retune = true;
    break;
  default:
    break;
  }
}

/* ---- rendering -------------------------------------------------------- */

static void
render_voice(impact_plugin* p, int i, float* out_l, float* out_r, int frames)
{
  impact_voice* voice = &p->voices[i];
  voice_slot* s = &p->slots[i];
  memset(p->scratch_l, 0, sizeof(float) * (size_t)frames);
  memset(p->scratch_r, 0, sizeof(float) * (size_t)frames);
  impact_process(&voice->contact, &voice->object, frames, p->scratch_l,
                 p->scratch_r, 1.0);
  if (!impact_is_finite(&voice->contact) || !modal_is_finite(&voice->object)) {
    p->report.voice_resets++;
    free_voice(p, i);
    return;
  }
  float fade = s->fade;
  for (int t = 0; t < frames; ++t) {
    if (fade < 1.0f) {
      fade = fade > s->fade_step ? fade - s->fade_step : 0.0f;
      out_l[t] += fade * p->scratch_l[t];
      out_r[t] += fade * p->scratch_r[t];
    } else {
      out_l[t] += p->scratch_l[t];
      out_r[t] += p->scratch_r[t];
    }
  }
  s->fade = fade;

  double reach, speed;
  modal_bounds(&voice->object, &reach, &speed);
  s->level = (float)speed;
  if (fade <= 0.0f ||
      (!impact_is_active(&voice->contact) && speed * p->object.gain < silence))
    free_voice(p, i);
}

static void
render(impact_plugin* p, uint32_t from, uint32_t to)
{
  float* out_l = p->ports[IMPACT_OUT_L];
  float* out_r = p->ports[IMPACT_OUT_R];
  while (from < to) {
    const int frames = (int)(to - from < CHUNK ? to - from : CHUNK);
    if (p->retune) {
      for (int i = 0; i < N_VOICES; ++i)
        if (p->slots[i].sounding)
          tune_voice(p, i);
      p->retune = false;
    }
    for (int i = 0; i < N_VOICES; ++i)
      if (p->slots[i].sounding)
        render_voice(p, i, out_l + from, out_r + from, frames);

    /* output gain, smoothed so that automation does not click */
    double g = p->gain_now;
    const double target = p->object.gain;
    for (int t = 0; t < frames; ++t) {
      g += (target - g) * p->gain_coeff;
      out_l[from + t] *= (float)g;
      out_r[from + t] *= (float)g;
    }
    p->gain_now = g;
    from += (uint32_t)frames;
  }
}

static void
write_meters(impact_plugin* p)
{
  float meters[5] = {0, 0, 0, 0, 0};
  uint64_t cap_hits = p->cap_hits_retired;
  for (int i = 0; i < N_VOICES; ++i)
    cap_hits += p->voices[i].contact.stats.cap_hits;
  if (p->last_struck >= 0) {
    const impact_contact* c = &p->voices[p->last_struck].contact.last;
    meters[0] = (float)c->impact_velocity;
    meters[1] = (float)c->rebound_velocity;
    meters[2] = (float)(c->contact_time * 1e3);
    meters[3] = (float)c->peak_force;
  }
  meters[4] = (float)cap_hits;
  for (int m = 0; m < 5; ++m)
    if (p->ports[IMPACT_IMPACT_VELOCITY + m])
      *p->ports[IMPACT_IMPACT_VELOCITY + m] = meters[m];
}

/* whatever happened, never hand the host NaN, Inf or a runaway level */
static void
sanitize(float* out, uint32_t frames)
{
  for (uint32_t t = 0; t < frames; ++t) {
    const float x = out[t];
    out[t] = !isfinite(x) ? 0.0f : x > 16.0f ? 16.0f : x < -16.0f ? -16.0f : x;
  }
}

static void
run(LV2_Handle instance, uint32_t n_samples)
{
  impact_plugin* p = (impact_plugin*)instance;
  float* out_l = p->ports[IMPACT_OUT_L];
  float* out_r = p->ports[IMPACT_OUT_R];
  if (!out_l || !out_r)
    return;
  const unsigned fp_mode = dsp_flush_denormals();

  if (controls_read(&impact_info, p->ports, p->values, &p->report))
    apply_controls(p);
  if (p->activated) {
    p->gain_now = p->object.gain; /* start where the host set it */
    p->activated = false;
  }
  memset(out_l, 0, sizeof(float) * n_samples);
  memset(out_r, 0, sizeof(float) * n_samples);

  uint32_t t = 0;
  const LV2_Atom_Sequence* seq =
      (const LV2_Atom_Sequence*)p->ports[IMPACT_MIDI_IN];
  if (seq && seq->atom.type == p->host.uris.atom_Sequence) {
    LV2_ATOM_SEQUENCE_FOREACH(seq, ev)
    {
      const int64_t at = ev->time.frames;
      const uint32_t frame = at < (int64_t)t           ? t
                             : at > (int64_t)n_samples ? n_samples
                                                       : (uint32_t)at;
      render(p, t, frame);
      t = frame;
      if (ev->body.type == p->host.uris.midi_MidiEvent)
        handle_midi(p, (const uint8_t*)LV2_ATOM_BODY_CONST(&ev->body),
                    ev->body.size);
    }
  }
  render(p, t, n_samples);

  sanitize(out_l, n_samples);
  sanitize(out_r, n_samples);
  write_meters(p);
  plugin_host_report(&p->host, &p->report, n_samples);
  dsp_restore_fp_mode(fp_mode);
}

/* ---- life cycle ------------------------------------------------------- */

static LV2_Handle
instantiate(const LV2_Descriptor* descriptor, double rate,
            const char* bundle_path, const LV2_Feature* const* features)
{
  (void)descriptor;
  (void)bundle_path;
  impact_plugin* p = (impact_plugin*)calloc(1, sizeof(impact_plugin));
  if (!p)
    return NULL;
  if (!plugin_host_init(&p->host, &impact_info, rate, features)) {
    free(p);
    return NULL;
  }
  p->voices = (impact_voice*)aligned_alloc(64, sizeof(impact_voice) * N_VOICES);
  if (!p->voices) {
    free(p);
    return NULL;
  }
  for (int i = 0; i < N_VOICES; ++i) {
    modal_init(&p->voices[i].object, rate);
    impact_init(&p->voices[i].contact, rate);
    p->slots[i] = (voice_slot){.note = -1, .fade = 1.0f};
  }
  p->last_struck = -1;
  p->gain_coeff = -expm1(-1.0 / (gain_smoothing_s * rate));
  controls_defaults(&impact_info, p->values);
  apply_controls(p);
  p->gain_now = p->object.gain;
  return (LV2_Handle)p;
}

static void
connect_port(LV2_Handle instance, uint32_t port, void* data)
{
  impact_plugin* p = (impact_plugin*)instance;
  if (port < IMPACT_N_PORTS)
    p->ports[port] = (float*)data;
}

static void
activate(LV2_Handle instance)
{
  impact_plugin* p = (impact_plugin*)instance;
  for (int i = 0; i < N_VOICES; ++i)
    free_voice(p, i);
  p->last_struck = -1;
  p->bend = 0.0;
  p->sustain = false;
  p->keys_down = 0;
  p->activated = true;
}

static void
cleanup(LV2_Handle instance)
{
  impact_plugin* p = (impact_plugin*)instance;
  free(p->voices);
  free(p);
}

static LV2_Worker_Status
work(LV2_Handle instance, LV2_Worker_Respond_Function respond,
     LV2_Worker_Respond_Handle handle, uint32_t size, const void* data)
{
  (void)respond;
  (void)handle;
  impact_plugin* p = (impact_plugin*)instance;
  return plugin_host_work(&p->host, &impact_info, size, data);
}

static LV2_Worker_Status
work_response(LV2_Handle instance, uint32_t size, const void* data)
{
  (void)instance;
  (void)size;
  (void)data;
  return LV2_WORKER_SUCCESS;
}

/* Block-length options may change at any time; any length is fine. */
static uint32_t
options_set(LV2_Handle instance, const LV2_Options_Option* options)
{
  (void)instance;
  (void)options;
  return LV2_OPTIONS_SUCCESS;
}

static uint32_t
options_get(LV2_Handle instance, LV2_Options_Option* options)
{
  impact_plugin* p = (impact_plugin*)instance;
  uint32_t status = LV2_OPTIONS_SUCCESS;
  for (int i = 0; options && options[i].key; ++i) {
    if (options[i].key == p->host.uris.param_sampleRate) {
      p->rate_option = (float)p->host.sample_rate;
      options[i].size = sizeof(float);
      options[i].type = p->host.uris.atom_Float;
      options[i].value = &p->rate_option;
    } else {
      status |= LV2_OPTIONS_ERR_BAD_KEY;
    }
  }
  return status;
}

static const void*
extension_data(const char* uri)
{
  static const LV2_Worker_Interface worker = {work, work_response, NULL};
  static const LV2_Options_Interface options = {options_get, options_set};
  if (!strcmp(uri, LV2_WORKER__interface))
    return &worker;
  if (!strcmp(uri, LV2_OPTIONS__interface))
    return &options;
  return NULL;
}

const LV2_Descriptor impact_descriptor = {
    IMPACT_URI, instantiate, connect_port, activate,
    run,        NULL,        cleanup,      extension_data,
};
