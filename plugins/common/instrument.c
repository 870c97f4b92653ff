/* SPDX-License-Identifier: ISC */
#include "instrument.h"

#include "dsp_util.h"
#include "midi.h"

#include <lv2/atom/util.h>
#include <lv2/options/options.h>
#include <lv2/state/state.h>
#include <lv2/worker/worker.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A voice no longer driven by the player whose motion cannot make the
 * output louder than `silence` (-120 dBFS, far below any playback's noise
 * floor) is retired: freed, or parked at rest under the load that lies on
 * it.  A stolen voice fades out over steal_fade_s; gain changes glide with
 * gain_smoothing_s.  output_clamp (+24 dBFS, beyond the limiter's ceiling)
 * is only reached by a blow-up: the last line of defence. */
static const double silence = 1e-6;
static const double steal_fade_s = 0.005;
static const double gain_smoothing_s = 0.005;
static const double gain_arrived = 1e-7; /* 2^-24 is 6e-8 */
static const float output_clamp = 16.0f;
/* modes ringing out after a table swap are let go after 15 of their 1/e
 * times: 130 dB down */
static const double ring_out_s = 15.0 * OBJECT_RING_OUT_S;

/* ---- worker messages about the table (glue.h has their types) ---------- */

typedef struct work_load {
  uint32_t type;         /* WORK_LOAD_TABLE */
  uint32_t clear_on_err; /* restoring a state: a file that fails leaves the
                            mode ports, not the table that was in use */
  uint32_t length;       /* of the path, bytes without the NUL; 0: clear */
  char path[OBJECT_PATH_SIZE];
} work_load;

typedef struct work_table {
  uint32_t type;  /* WORK_FREE_TABLE, WORK_TABLE_READY */
  uint32_t clear; /* READY: no table (table is NULL) */
  object_table* table;
} work_table;

/* ---- voices ----------------------------------------------------------- */

/* something changed on voice v: a parked voice is computed again */
static void
wake(instrument* in, int v)
{
  in->slots[v].resting = false;
}

/* ---- where the voices touch and hear their objects (place.h) --------- */

/* the shapes the shape port chooses: a family's, the table's, or none */
static const shape_set*
shapes_in_use(const instrument* in)
{
  const int f = in->where.shape;
  if (f == SHAPE_TABLE)
    return in->table ? in->table->shapes : NULL;
  return f > SHAPE_NONE && f < SHAPE_TABLE ? in->families[f] : NULL;
}

static double
travel_of(instrument* in, int v)
{
  return in->cls->travel ? in->cls->travel(in, v) : 0.0;
}

/* x reflected into [0, 1] (a spread offset past an end comes back) */
static double
reflect01(double x)
{
  x = x < 0.0 ? -x : x;
  return x > 1.0 ? 2.0 - x : x;
}

/* Where a strike of `note` lands within the spread: an offset uniform in
 * [-spread, spread], from a hash (splitmix64) of the note and how often it
 * has been struck, so that a repeated note varies, the same way on every
 * render of the same notes. */
static double
strike_offset(instrument* in, int note)
{
  const uint32_t count = in->note_strikes[note & 127]++;
  if (!(in->where.spread > 0.0))
    return 0.0;
  uint64_t z = ((uint64_t)(note & 127) << 32 | count) + 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  const double u = (double)(z >> 11) * 0x1.0p-53; /* [0, 1) */
  return in->where.spread * (2.0 * u - 1.0);
}

/* voice v's place aimed at the ports and its note's point */
static void
aim_voice(instrument* in, int v, bool jump)
{
  place* p = &in->places[v];
  place_set_shapes(p, (shape_family)in->where.shape, shapes_in_use(in));
  place_set_point(p, reflect01(in->position_base + in->spread_offset[v]),
                  in->where.position_y, jump);
  place_set_pickups(p, in->where.pickup, in->where.pickup_r, jump);
  place_set_path(p, in->where.path, in->where.length, travel_of(in, v), jump);
}

/* the object of voice v weighed where its place is now */
static void
place_voice(instrument* in, int v)
{
  place_apply(&in->places[v], instrument_object(in, v), travel_of(in, v));
}

static void
aim_voices(instrument* in)
{
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    aim_voice(in, v, !in->slots[v].sounding);
}

void
instrument_set_path(instrument* in, place_path path, double length)
{
  if (path == in->where.path && length == in->where.length)
    return;
  in->where.path = path;
  in->where.length = length;
  aim_voices(in);
}

static void
tune_voice(instrument* in, int v)
{
  wake(in, v);
  object_tune_ring_out(&in->object, instrument_object(in, v), in->slots[v].note,
                       in->bend, in->slots[v].damped, in->slots[v].ring_out);
  place_voice(in, v);
  in->cls->object_changed(in, v);
}

static void
free_voice(instrument* in, int v)
{
  in->cls->reset(in, v);
  in->slots[v].sounding = false;
  in->slots[v].resting = false;
  in->slots[v].fade = 1.0f;
  in->slots[v].ring_out = 0;
}

/* A new table for a sounding voice, without a click.  Mode i of the new
 * table takes over mode i's state: its velocity (what the pickups hear)
 * is kept, and its displacement scaled by w_old / w_new so that the
 * mode's amplitude, sqrt(v^2 + w^2 x^2), stays (kept as it is, a mode
 * tuned up 3 octaves would ring 8 times louder).  Modes the new table
 * does not have ring out (object_tune_ring_out()).  A voice parked at
 * rest under a load is settled again on the new object. */
static void
swap_voice(instrument* in, int v)
{
  voice_slot* s = &in->slots[v];
  modal_object* o = instrument_object(in, v);
  const bool resting = s->resting;
  double w_old[MODAL_MAX_MODES];
  const int old = o->count;
  memcpy(w_old, o->w0, sizeof(double) * (size_t)old);
  s->ring_out = old;
  s->ring_out_until =
      in->clock + (uint64_t)(ring_out_s * in->host.sample_rate) + 1;
  wake(in, v);
  object_tune_ring_out(&in->object, o, s->note, in->bend, s->damped,
                       s->ring_out);
  const int kept = object_mode_count(&in->object, s->note);
  for (int l = 0; l < kept && l < old; ++l)
    if (w_old[l] > 0.0 && o->w0[l] > 0.0)
      o->x[l] *= w_old[l] / o->w0[l];
  aim_voice(in, v, false); /* the table may bring its own shapes */
  place_voice(in, v);
  in->cls->object_changed(in, v);
  if (resting) {
    if (in->cls->settle(in, v))
      s->resting = true;
    else
      free_voice(in, v);
  }
}

static void
set_damped(instrument* in, int v, bool damped)
{
  if (in->slots[v].damped != damped) {
    in->slots[v].damped = damped;
    tune_voice(in, v);
  }
}

/* the key is up and the pedal lets go: the instrument lifts its exciter,
 * the damper (when on) falls on the object */
static void
release(instrument* in, int v)
{
  voice_slot* s = &in->slots[v];
  s->key_down = false;
  if (in->sustain) {
    s->sustained = true;
    return;
  }
  s->sustained = false;
  wake(in, v);
  in->cls->note_off(in, v);
  if (in->object.damper)
    set_damped(in, v, true);
}

static void
note_on(instrument* in, int note, int velocity)
{
  const int fade = (int)(steal_fade_s * in->host.sample_rate);
  int v;
  if (in->object.pitch_track) {
    v = voices_find(in->slots, INSTRUMENT_VOICES, note);
    if (v < 0)
      v = voices_allocate(in->slots, INSTRUMENT_VOICES, INSTRUMENT_POLYPHONY,
                          fade);
  } else {
    v = 0; /* one object for every note */
    ++in->keys_down;
  }
  voice_slot* s = &in->slots[v];
  const bool fresh = !s->sounding || s->fade < 1.0f ||
                     (in->object.pitch_track && s->note != note);
  if (fresh) {
    free_voice(in, v);
    s->note = note;
    s->damped = false;
    tune_voice(in, v);
  } else {
    s->note = note;
    set_damped(in, v, false);
  }
  s->sounding = true;
  s->key_down = true;
  s->sustained = false;
  s->fade = 1.0f;
  s->level = 1.0f;
  s->started = ++in->starts;
  s->velocity = velocity / 127.0f;
  if (fresh)
    s->pressure = 0.0f;
  wake(in, v);
  if (in->last_started != v)
    in->meter = (meter_sums){{0}, 0};
  in->last_started = v;
  /* a blow lands where it lands; a rubbing or rolling exciter already on
   * a sounding object moves there */
  in->spread_offset[v] = strike_offset(in, note);
  aim_voice(in, v, fresh || in->cls->strikes);
  place_voice(in, v);
  in->cls->note_on(in, v, velocity, fresh);
}

static void
note_off(instrument* in, int note)
{
  if (!in->object.pitch_track) {
    if (in->keys_down > 0 && --in->keys_down == 0 && in->slots[0].sounding)
      release(in, 0);
    return;
  }
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    if (in->slots[v].sounding && in->slots[v].key_down &&
        in->slots[v].note == note)
      release(in, v);
}

/* pressure on voice v (-1: every voice), and the mod wheel */
static void
set_pressure(instrument* in, int v, double pressure)
{
  for (int k = v < 0 ? 0 : v; k < (v < 0 ? INSTRUMENT_VOICES : v + 1); ++k) {
    in->slots[k].pressure = (float)pressure;
    if (in->cls->expression) {
      wake(in, k);
      in->cls->expression(in, k);
    }
  }
}

static void
set_mod_wheel(instrument* in, double value)
{
  in->mod_wheel = value;
  if (in->cls->expression)
    for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
      wake(in, v);
      in->cls->expression(in, v);
    }
}

static void
control_change(instrument* in, int number, int value)
{
  switch (number) {
  case 64: /* sustain pedal: held notes go on until it lifts */
    in->sustain = value >= 64;
    if (!in->sustain)
      for (int v = 0; v < INSTRUMENT_VOICES; ++v)
        if (in->slots[v].sounding && in->slots[v].sustained)
          release(in, v);
    break;
  case 120: /* all sound off, the limiter's and the gain's memory of it too */
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      free_voice(in, v);
    limiter_reset(&in->limiter);
    in->gain_now = in->object.gain;
    break;
  case 121: /* reset all controllers; the notes' position is the port's */
    in->position_base = in->where.position;
    in->bend = 0.0;
    in->retune = true;
    control_change(in, 64, 0);
    set_pressure(in, -1, 0.0);
    set_mod_wheel(in, 0.0);
    break;
  case 123: /* all notes off */
    in->keys_down = 0;
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      if (in->slots[v].sounding && in->slots[v].key_down)
        release(in, v);
    break;
  case 1: /* mod wheel */
    set_mod_wheel(in, value / 127.0);
    break;
  case 74: /* MPE's timbre: the position of the notes that follow, and of
            * the exciters the keys hold */
    in->position_base = value / 127.0;
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      if (in->slots[v].sounding && in->slots[v].key_down)
        aim_voice(in, v, false);
    break;
  default:
    break;
  }
}

static void
handle_midi(instrument* in, const uint8_t* data, uint32_t size)
{
  midi_message m;
  if (!midi_parse(data, size, &m)) {
    in->report.bad_midi++;
    return;
  }
  switch (m.kind) {
  case MIDI_NOTE_ON:
    note_on(in, m.data1, m.data2);
    break;
  case MIDI_NOTE_OFF:
    note_off(in, m.data1);
    break;
  case MIDI_CONTROL:
    control_change(in, m.data1, m.data2);
    break;
  case MIDI_PITCH_BEND:
    in->bend = m.bend / 8192.0 * in->object.bend_range;
    in->retune = true;
    break;
  case MIDI_CHANNEL_PRESSURE:
    set_pressure(in, -1, m.data1 / 127.0);
    break;
  case MIDI_POLY_PRESSURE:
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      if (in->slots[v].sounding &&
          (!in->object.pitch_track || in->slots[v].note == m.data1))
        set_pressure(in, v, m.data2 / 127.0);
    break;
  default:
    break;
  }
}

/* ---- rendering -------------------------------------------------------- */

/* A chunk's worth of samples.  Not memcpy(): GCC inlines that, for a
 * length it does not know, as rep movs, which is slow to start for a few
 * hundred bytes; the loop is vectorised or handed to the library. */
static void
copy(float* restrict to, const float* restrict from, int frames)
{
#pragma omp simd
  for (int t = 0; t < frames; ++t)
    to[t] = from[t];
}

/* Voice v adds `frames` into out_l and out_r.  A voice at full level
 * (the common case) renders straight into them, since the DSP adds: what
 * was there is kept in the scratch buffers, to be put back should the
 * voice's state go non-finite in this stretch (it is then reset and
 * nothing of it is heard, as when it rendered apart).  A fading voice
 * renders apart, to be scaled by its fade. */
/* The voice's render, cut where its place moves (place_step() on the
 * clock's grid, so wherever the host's blocks fall).  The interaction
 * point's moves wait while nothing touches the object (cls->touching):
 * the next strike is placed where it lands. */
static void
render_placed(instrument* in, int v, float* l, float* r, int frames)
{
  place* p = &in->places[v];
  int t = 0;
  while (t < frames) {
    const uint64_t clock = in->clock + (uint64_t)t;
    const bool point = !in->cls->touching || in->cls->touching(in, v);
    if (clock % PLACE_UPDATE == 0 && place_moving(p, point))
      place_step(p, instrument_object(in, v), travel_of(in, v), clock, point);
    const int n = place_until_update(p, clock, frames - t, point);
    in->cls->render(in, v, l + t, r + t, n);
    t += n;
  }
}

static void
render_voice(instrument* in, int v, float* out_l, float* out_r, int frames)
{
  voice_slot* s = &in->slots[v];
  const size_t bytes = sizeof(float) * (size_t)frames;
  const bool direct = s->fade >= 1.0f;
  if (direct) {
    copy(in->scratch_l, out_l, frames);
    copy(in->scratch_r, out_r, frames);
    render_placed(in, v, out_l, out_r, frames);
  } else {
    memset(in->scratch_l, 0, bytes);
    memset(in->scratch_r, 0, bytes);
    render_placed(in, v, in->scratch_l, in->scratch_r, frames);
  }
  if (!in->cls->finite(in, v) || !modal_is_finite(instrument_object(in, v))) {
    if (direct) { /* what the other voices made, without this one */
      copy(out_l, in->scratch_l, frames);
      copy(out_r, in->scratch_r, frames);
    }
    in->report.voice_resets++;
    in->repairs++;
    free_voice(in, v);
    return;
  }
  if (!direct) {
    float fade = s->fade;
    for (int t = 0; t < frames; ++t) {
      fade = fade > s->fade_step ? fade - s->fade_step : 0.0f;
      out_l[t] += fade * in->scratch_l[t];
      out_r[t] += fade * in->scratch_r[t];
    }
    s->fade = fade;
  }

  if (v == in->last_started) {
    double values[INSTRUMENT_MAX_METERS];
    in->cls->read_meters(in, v, values);
    for (int i = 0; i < in->cls->n_meters; ++i)
      if (in->cls->meters[i].block_mean)
        in->meter.value[i] += values[i] * frames;
    in->meter.frames += frames;
  }
}

/* At every INSTRUMENT_CHUNK of the clock (so at the same frames whatever
 * the host's blocks): the voices' levels for stealing, and the retirement
 * of those that have gone quiet for good. */
static void
look_after_voices(instrument* in)
{
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    voice_slot* s = &in->slots[v];
    if (!s->sounding || s->resting)
      continue;
    if (s->ring_out && in->clock >= s->ring_out_until) {
      s->ring_out = 0; /* rung out: the table's modes only */
      tune_voice(in, v);
    }
    bool driven = false;
    const double unrest = in->cls->unrest(in, v, &driven);
    s->level = (float)unrest;
    if (s->fade <= 0.0f) {
      free_voice(in, v);
    } else if (!driven && unrest * in->object.gain < silence) {
      if (in->cls->settle(in, v))
        s->resting = true;
      else
        free_voice(in, v);
    }
  }
}

static void
render(instrument* in, uint32_t from, uint32_t to)
{
  while (from < to) {
    const uint32_t to_grid =
        INSTRUMENT_CHUNK - (uint32_t)(in->clock % INSTRUMENT_CHUNK);
    const int frames = (int)(to - from < to_grid ? to - from : to_grid);
    /* pointers, not out_l[from + t]: an unsigned index could wrap, which
     * keeps the loops below from vectorising */
    float* out_l = in->ports[in->cls->out_l] + from;
    float* out_r = in->ports[in->cls->out_r] + from;
    if (in->retune) {
      for (int v = 0; v < INSTRUMENT_VOICES; ++v)
        if (in->slots[v].sounding)
          tune_voice(in, v);
      in->retune = false;
    }
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      if (in->slots[v].sounding && !in->slots[v].resting)
        render_voice(in, v, out_l, out_r, frames);

    /* output gain, smoothed so that automation does not click */
    double g = in->gain_now;
    const double target = in->object.gain;
    int t = 0;
    for (; t < frames && g != target; ++t) {
      g += (target - g) * in->gain_coeff;
      /* arrived: within the float output's resolution of the target, so
       * that a gain once moved ends exactly where a fresh one starts */
      if (fabs(g - target) <= gain_arrived * fabs(target))
        g = target;
      out_l[t] *= (float)g;
      out_r[t] *= (float)g;
    }
    if (g != 1.0) { /* x * 1.0f is x: at unity gain the pass is skipped */
      /* arrived: a loop per channel, which vectorises (the two buffers
       * are not known apart) */
      const float gf = (float)g;
      for (int k = t; k < frames; ++k)
        out_l[k] *= gf;
      for (int k = t; k < frames; ++k)
        out_r[k] *= gf;
    }
    in->gain_now = g;
    from += (uint32_t)frames;
    in->clock += (uint64_t)frames;
    if (in->clock % INSTRUMENT_CHUNK == 0)
      look_after_voices(in);
  }
}

/* whatever happened, never hand the host NaN, Inf or a runaway level;
 * returns how many samples needed it */
static uint64_t
sanitize(float* out, uint32_t frames)
{
  /* first a pass that vectorises: |NaN| <= x is false, as is |Inf| <= x */
  int within = 1;
#pragma omp simd reduction(& : within)
  for (uint32_t t = 0; t < frames; ++t)
    within &= fabsf(out[t]) <= output_clamp;
  if (within)
    return 0;
  uint64_t repaired = 0;
  for (uint32_t t = 0; t < frames; ++t) {
    const float x = out[t];
    if (isfinite(x) && x <= output_clamp && x >= -output_clamp)
      continue;
    out[t] = !isfinite(x) ? 0.0f : x > 0.0f ? output_clamp : -output_clamp;
    ++repaired;
  }
  return repaired;
}

static void
write_port(instrument* in, int port, double value)
{
  if (port >= 0 && in->ports[port])
    *in->ports[port] = (float)value;
}

static void
write_meters(instrument* in)
{
  const instrument_class* cls = in->cls;
  uint64_t cap_hits = 0;
  int computed = 0;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    const newton_stats* stats =
        (const newton_stats*)((const char*)instrument_voice(in, v) +
                              cls->stats_offset);
    cap_hits += stats->cap_hits;
    computed += in->slots[v].sounding && !in->slots[v].resting;
  }
  write_port(in, cls->cap_hits_meter, (double)cap_hits);
  write_port(in, cls->voices_meter, computed);
  write_port(in, cls->repairs_meter, (double)in->repairs);

  double now[INSTRUMENT_MAX_METERS] = {0};
  if (in->last_started >= 0)
    cls->read_meters(in, in->last_started, now);
  for (int i = 0; i < cls->n_meters; ++i) {
    const instrument_meter* m = &cls->meters[i];
    /* a voice not rendered this block (parked, or freed) shows its state */
    const double value = m->block_mean && in->meter.frames > 0
                             ? in->meter.value[i] / in->meter.frames
                             : now[i];
    write_port(in, m->port, value);
  }
  if (in->last_started >= 0) {
    double x, y;
    const int v = in->last_started;
    place_point_at(&in->places[v], travel_of(in, v), &x, &y);
    write_port(in, cls->notify + 1 + PLACE_STRIKE_METER, x);
  }
  in->meter = (meter_sums){{0}, 0};
}

static void
apply_controls(instrument* in)
{
  object_settings_read(&in->object, in->values + in->cls->object_port);
  const float* c = in->values + in->cls->notify + 1;
  const double position = c[PLACE_POSITION];
  if (position != in->where.position) /* moved last: the notes take it */
    in->position_base = position;
  in->where.shape = (int)c[PLACE_SHAPE];
  in->where.position = position;
  in->where.position_y = c[PLACE_POSITION_Y];
  in->where.pickup = c[PLACE_PICKUP];
  in->where.pickup_r = c[PLACE_PICKUP_R];
  in->where.spread = c[PLACE_SPREAD];
  in->cls->controls(in);
  aim_voices(in);
  /* the voices are tuned again when a port other than the place's moved
   * (automating where the object is struck must not retune it: a retune
   * works out every mode's coefficients again) */
  const int n = in->cls->info->n_ports, place = in->cls->notify + 1;
  for (int i = 0; i < n; ++i) {
    if (i >= place && i < place + PLACE_N_PORTS)
      continue;
    if (!(in->tuned[i] == in->values[i])) {
      in->tuned[i] = in->values[i];
      in->retune = true;
    }
  }
}

/* ---- the modal table (audio thread) ---------------------------------- */

static void
schedule_free(instrument* in)
{
  const plugin_host* host = &in->host;
  if (!in->to_free || !host->schedule)
    return;
  const work_table message = {WORK_FREE_TABLE, 0, in->to_free};
  if (host->schedule->schedule_work(host->schedule->handle, sizeof(message),
                                    &message) == LV2_WORKER_SUCCESS)
    in->to_free = NULL; /* else tried again at the next run() */
}

/* the table in use as a patch:Set on the notify port, at `frame` */
static void
notify_table(instrument* in, uint32_t frame)
{
  LV2_Atom_Forge* forge = &in->forge;
  if (!forge->buf)
    return;
  const object_table* t = in->table;
  /* the whole event or nothing: a half-written object is malformed (the
   * event's and the object's headers, two keys and values: under 96) */
  const uint32_t need = 96 + (t ? t->path_length : 0) + 8;
  if (forge->size - forge->offset < need)
    return;
  if (lv2_atom_forge_frame_time(forge, frame))
    contact_write_set_table(forge, &in->host.uris, t ? t->path : "",
                            t ? t->path_length : 0);
}

static void
handle_patch(instrument* in, const LV2_Atom_Object* obj, uint32_t frame)
{
  const contact_uris* uris = &in->host.uris;
  /* other objects (a host's time:Position, say) are not ours to judge */
  if (obj->body.otype != uris->patch_Set && obj->body.otype != uris->patch_Get)
    return;
  if (contact_is_get_table(uris, obj)) {
    notify_table(in, frame);
    return;
  }
  const char* path = contact_read_set_table(uris, obj);
  const size_t length = path ? strlen(path) : 0;
  LV2_Worker_Schedule* schedule = in->host.schedule;
  if (!path || length >= OBJECT_PATH_SIZE || !schedule) {
    in->report.bad_patch++;
    return;
  }
  /* the message is as long as the path: a worker ring holds many */
  work_load message = {WORK_LOAD_TABLE, 0, (uint32_t)length, ""};
  memcpy(message.path, path, length + 1);
  const uint32_t size = (uint32_t)(offsetof(work_load, path) + length + 1);
  if (schedule->schedule_work(schedule->handle, size, &message) !=
      LV2_WORKER_SUCCESS)
    in->report.bad_patch++;
}

void
instrument_run(LV2_Handle h, uint32_t n_samples)
{
  instrument* in = (instrument*)h;
  float* out_l = in->ports[in->cls->out_l];
  float* out_r = in->ports[in->cls->out_r];
  if (!out_l || !out_r)
    return;
  const unsigned fp_mode = dsp_flush_denormals();

  if (controls_read(in->cls->info, &in->inputs, in->ports, in->values,
                    &in->report))
    apply_controls(in);
  if (in->activated) {
    in->gain_now = in->object.gain; /* start where the host set it */
    in->activated = false;
  }
  memset(out_l, 0, sizeof(float) * n_samples);
  memset(out_r, 0, sizeof(float) * n_samples);

  /* the notify port: the host says its capacity in the atom's size */
  LV2_Atom_Sequence* notify = (LV2_Atom_Sequence*)in->ports[in->cls->notify];
  LV2_Atom_Forge_Frame notify_frame;
  in->forge.buf = NULL;
  if (notify && notify->atom.size >= sizeof(LV2_Atom_Sequence_Body)) {
    lv2_atom_forge_set_buffer(&in->forge, (uint8_t*)notify, notify->atom.size);
    lv2_atom_forge_sequence_head(&in->forge, &notify_frame, 0);
  }
  schedule_free(in);
  if (in->table_swapped) { /* a table came in since the last block */
    for (int v = 0; v < INSTRUMENT_VOICES; ++v)
      if (in->slots[v].sounding)
        swap_voice(in, v);
      else
        aim_voice(in, v, true);
    in->table_swapped = false;
  }
  if (in->table_notify) {
    notify_table(in, 0);
    in->table_notify = false;
  }

  uint32_t t = 0;
  const LV2_Atom_Sequence* seq =
      (const LV2_Atom_Sequence*)in->ports[in->cls->midi_in];
  if (seq && seq->atom.type == in->host.uris.atom_Sequence) {
    LV2_ATOM_SEQUENCE_FOREACH(seq, ev)
    {
      const int64_t at = ev->time.frames;
      const uint32_t frame = at < (int64_t)t           ? t
                             : at > (int64_t)n_samples ? n_samples
                                                       : (uint32_t)at;
      render(in, t, frame);
      t = frame;
      if (ev->body.type == in->host.uris.midi_MidiEvent)
        handle_midi(in, (const uint8_t*)LV2_ATOM_BODY_CONST(&ev->body),
                    ev->body.size);
      else if (ev->body.type == in->host.uris.atom_Object)
        handle_patch(in, (const LV2_Atom_Object*)&ev->body, frame);
    }
  }
  render(in, t, n_samples);

  if (in->forge.buf)
    lv2_atom_forge_pop(&in->forge, &notify_frame);

  limiter_process(&in->limiter, out_l, out_r, n_samples);
  in->repairs += sanitize(out_l, n_samples) + sanitize(out_r, n_samples);
  write_meters(in);
  plugin_host_report(&in->host, &in->report, n_samples);
  dsp_restore_fp_mode(fp_mode);
}

/* ---- life cycle ------------------------------------------------------- */

LV2_Handle
instrument_instantiate(const LV2_Descriptor* descriptor, double rate,
                       const char* bundle_path,
                       const LV2_Feature* const* features)
{
  (void)bundle_path;
  const instrument_class* cls = (const instrument_class*)descriptor;
  instrument* in = (instrument*)calloc(1, sizeof(instrument));
  if (!in)
    return NULL;
  in->cls = cls;
  in->user = calloc(1, cls->user_size ? cls->user_size : 1);
  in->ports = (float**)calloc((size_t)cls->info->n_ports, sizeof(float*));
  in->values = (float*)calloc((size_t)cls->info->n_ports, sizeof(float));
  in->tuned = (float*)malloc(sizeof(float) * (size_t)cls->info->n_ports);
  in->voices = aligned_alloc(64, cls->voice_size * INSTRUMENT_VOICES);
  if (!in->user || !in->ports || !in->values || !in->tuned || !in->voices ||
      !control_inputs_init(&in->inputs, cls->info) ||
      !plugin_host_init(&in->host, cls->info, rate, features)) {
    instrument_cleanup(in);
    return NULL;
  }
  /* every byte of the voices defined, whatever voice_init() sets */
  memset(in->voices, 0, cls->voice_size * INSTRUMENT_VOICES);
  limiter_init(&in->limiter, rate);
  for (int f = SHAPE_NONE + 1; f < SHAPE_TABLE; ++f)
    if (!(in->families[f] = shape_set_new_family(f, MODAL_MAX_MODES))) {
      instrument_cleanup(in);
      return NULL;
    }
  in->where.path = PLACE_FIXED;
  in->where.length = 1.0;
  in->where.position = NAN; /* the port's first value is taken */
  for (int v = 0; v < INSTRUMENT_VOICES; ++v) {
    cls->voice_init(in, v);
    place_init(&in->places[v], rate);
    in->slots[v] = (voice_slot){.note = -1, .fade = 1.0f};
  }
  in->last_started = -1;
  lv2_atom_forge_init(&in->forge, in->host.map);
  in->gain_coeff = -expm1(-1.0 / (gain_smoothing_s * rate));
  for (int i = 0; i < cls->info->n_ports; ++i)
    in->tuned[i] = NAN;
  controls_defaults(cls->info, in->values);
  apply_controls(in);
  in->gain_now = in->object.gain;
  return in;
}

void
instrument_connect_port(LV2_Handle h, uint32_t port, void* data)
{
  instrument* in = (instrument*)h;
  if (port < (uint32_t)in->cls->info->n_ports)
    in->ports[port] = (float*)data;
}

void
instrument_activate(LV2_Handle h)
{
  instrument* in = (instrument*)h;
  for (int v = 0; v < INSTRUMENT_VOICES; ++v)
    free_voice(in, v);
  in->last_started = -1;
  in->meter = (meter_sums){{0}, 0};
  in->clock = 0;
  limiter_reset(&in->limiter);
  in->bend = 0.0;
  in->sustain = false;
  in->keys_down = 0;
  set_pressure(in, -1, 0.0);
  set_mod_wheel(in, 0.0);
  in->activated = true;
}

void
instrument_cleanup(LV2_Handle h)
{
  instrument* in = (instrument*)h;
  if (!in)
    return;
  object_table_free_chain(in->table);
  object_table_free_chain(in->to_free);
  for (int f = 0; f < SHAPE_FAMILIES; ++f)
    shape_set_free(in->families[f]);
  free(in->voices);
  control_inputs_free(&in->inputs);
  free(in->values);
  free(in->tuned);
  free(in->ports);
  free(in->user);
  free(in);
}

/* ---- the modal table (worker, state) ---------------------------------- */

/* Load and check the table at `path` ("": none), for the worker or a
 * restore.  *table: the new table, or NULL for none; false (logged, with
 * the parser's message naming file and line) if the file is refused. */
static bool
load_table(instrument* in, const char* path, bool restoring,
           object_table** table)
{
  *table = NULL;
  if (!path[0])
    return true;
  const char* name = in->cls->info->name;
  object_table* t = (object_table*)calloc(1, sizeof(object_table));
  modal_table_error err;
  if (!t) {
    lv2_log_error(&in->host.logger, "%s: %s: out of memory\n", name, path);
    return false;
  }
  const size_t length = strlen(path);
  if (length >= OBJECT_PATH_SIZE) {
    lv2_log_error(&in->host.logger, "%s: %.64s...: path too long\n", name,
                  path);
    free(t);
    return false;
  }
  /* the shapes a file may carry, read into a scratch copy (256 kB) and
   * prepared for the audio thread's interpolation */
  modal_shapes* shapes = (modal_shapes*)malloc(sizeof(modal_shapes));
  if (!shapes) {
    lv2_log_error(&in->host.logger, "%s: %s: out of memory\n", name, path);
    free(t);
    return false;
  }
  if (modal_keymap_load(path, &t->map, shapes, &err) != MODAL_TABLE_SUCCESS) {
    lv2_log_error(&in->host.logger, "%s: modal table refused: %s (%s)\n", name,
                  err.message,
                  restoring ? "playing the mode ports instead"
                            : "the table in use is kept");
    free(shapes);
    free(t);
    return false;
  }
  if (shapes->nx > 0 &&
      !(t->shapes = shape_set_new_sampled(t->map.zone[0].count, shapes->nx,
                                          shapes->ny, shapes->value))) {
    lv2_log_error(&in->host.logger, "%s: %s: out of memory\n", name, path);
    free(shapes);
    free(t);
    return false;
  }
  free(shapes);
  /* the modes a voice disables (modal.h): a table of none else loads
   * and plays nothing, which its user should hear of */
  const double limit = MODAL_MAX_FREQ_RATIO * in->host.sample_rate;
  double lowest = INFINITY;
  for (int z = 0; z < t->map.zones; ++z)
    for (int k = 0; k < t->map.zone[z].count; ++k)
      lowest = fmin(lowest, t->map.zone[z].freq[k]);
  if (!(lowest < limit))
    lv2_log_warning(&in->host.logger,
                    "%s: %s: every mode is at or above %.0f Hz (%.2g of the "
                    "sample rate, the highest a voice plays; the lowest is "
                    "%.0f Hz): it plays nothing at its root, only notes "
                    "played below it\n",
                    name, path, limit, MODAL_MAX_FREQ_RATIO, lowest);
  memcpy(t->path, path, length + 1);
  t->path_length = (uint32_t)length;
  *table = t;
  return true;
}

static LV2_Worker_Status
work(LV2_Handle instance, LV2_Worker_Respond_Function respond,
     LV2_Worker_Respond_Handle handle, uint32_t size, const void* data)
{
  instrument* in = (instrument*)instance;
  uint32_t type;
  if (size < sizeof(type))
    return LV2_WORKER_ERR_UNKNOWN;
  memcpy(&type, data, sizeof(type));
  switch (type) {
  case WORK_REPORT:
    return plugin_host_work(&in->host, in->cls->info, size, data);
  case WORK_LOAD_TABLE: {
    work_load message;
    const size_t head = offsetof(work_load, path);
    if (size < head + 1 || size > sizeof(message))
      return LV2_WORKER_ERR_UNKNOWN;
    memcpy(&message, data, size);
    if (message.length != size - head - 1 || message.path[message.length])
      return LV2_WORKER_ERR_UNKNOWN;
    object_table* table;
    if (!load_table(in, message.path, message.clear_on_err, &table) &&
        !message.clear_on_err)
      return LV2_WORKER_SUCCESS; /* refused: the table in use stays */
    const work_table ready = {WORK_TABLE_READY, table == NULL, table};
    if (respond(handle, sizeof(ready), &ready) != LV2_WORKER_SUCCESS) {
      object_table_free_chain(table);
      return LV2_WORKER_ERR_NO_SPACE;
    }
    return LV2_WORKER_SUCCESS;
  }
  case WORK_FREE_TABLE: {
    work_table message;
    if (size != sizeof(message))
      return LV2_WORKER_ERR_UNKNOWN;
    memcpy(&message, data, sizeof(message));
    object_table_free_chain(message.table);
    return LV2_WORKER_SUCCESS;
  }
  default:
    return LV2_WORKER_ERR_UNKNOWN;
  }
}

/* In the audio thread (or in a restore, which runs alone): the table
 * becomes the one in use; the voices take it at the next block's start,
 * and the old one goes back to the worker to be freed. */
static void
swap_table(instrument* in, object_table* table)
{
  object_table* old = in->table;
  in->table = table;
  in->object.table = table;
  in->table_swapped = true;
  in->table_notify = true;
  if (old) { /* chained: a full worker ring only delays the free */
    old->next = in->to_free;
    in->to_free = old;
  }
}

static LV2_Worker_Status
work_response(LV2_Handle instance, uint32_t size, const void* data)
{
  instrument* in = (instrument*)instance;
  work_table message;
  if (size != sizeof(message))
    return LV2_WORKER_ERR_UNKNOWN;
  memcpy(&message, data, sizeof(message));
  if (message.type != WORK_TABLE_READY)
    return LV2_WORKER_ERR_UNKNOWN;
  swap_table(in, message.table);
  schedule_free(in);
  return LV2_WORKER_SUCCESS;
}

static const void*
find_feature(const LV2_Feature* const* features, const char* uri)
{
  for (int i = 0; features && features[i]; ++i)
    if (!strcmp(features[i]->URI, uri))
      return features[i]->data;
  return NULL;
}

static char*
copy_string(const char* s)
{
  const size_t size = strlen(s) + 1;
  char* copy = (char*)malloc(size);
  if (copy)
    memcpy(copy, s, size);
  return copy;
}

static void
free_path(const LV2_State_Free_Path* fp, char* path)
{
  if (fp)
    fp->free_path(fp->handle, path);
  else
    free(path);
}

/* The table's path, mapped to an abstract path by the host (state:mapPath:
 * it may copy or link the file into the session); no key: no table.
 * save() may run while run() does: it reads the table pointer once, and
 * a table swapped out meanwhile is only freed by the worker after the
 * next run() hands it over (eg-sampler takes the same risk; a host that
 * saves while also swapping tables and running the worker could still
 * see it go). */
static LV2_State_Status
state_save(LV2_Handle instance, LV2_State_Store_Function store,
           LV2_State_Handle handle, uint32_t flags,
           const LV2_Feature* const* features)
{
  (void)flags;
  instrument* in = (instrument*)instance;
  const object_table* t = in->table;
  if (!t)
    return LV2_STATE_SUCCESS;
  const LV2_State_Map_Path* map_path =
      (const LV2_State_Map_Path*)find_feature(features, LV2_STATE__mapPath);
  const LV2_State_Free_Path* fp =
      (const LV2_State_Free_Path*)find_feature(features, LV2_STATE__freePath);
  char* path = map_path ? map_path->abstract_path(map_path->handle, t->path)
                        : copy_string(t->path);
  if (!path)
    return LV2_STATE_ERR_UNKNOWN;
  const LV2_State_Status status =
      store(handle, in->host.uris.contact_modal_table, path, strlen(path) + 1,
            in->host.uris.atom_Path, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
  if (map_path)
    free_path(fp, path);
  else
    free(path);
  return status;
}

/* Restore runs alone (the instantiation threading class), unless the host
 * passes work:schedule for a restore while running (state:threadSafeRestore):
 * then the file loads in the worker and swaps in as a patch:Set does.  A
 * file that is gone or refused leaves the mode ports, with a log:Error
 * naming it. */
static LV2_State_Status
state_restore(LV2_Handle instance, LV2_State_Retrieve_Function retrieve,
              LV2_State_Handle handle, uint32_t flags,
              const LV2_Feature* const* features)
{
  (void)flags;
  instrument* in = (instrument*)instance;
  size_t size = 0;
  uint32_t type = 0, value_flags = 0;
  const char* value = (const char*)retrieve(
      handle, in->host.uris.contact_modal_table, &size, &type, &value_flags);
  const LV2_State_Map_Path* map_path =
      (const LV2_State_Map_Path*)find_feature(features, LV2_STATE__mapPath);
  const LV2_State_Free_Path* fp =
      (const LV2_State_Free_Path*)find_feature(features, LV2_STATE__freePath);
  LV2_Worker_Schedule* schedule =
      (LV2_Worker_Schedule*)find_feature(features, LV2_WORKER__schedule);

  char* path = NULL; /* NULL: no table */
  if (value && type == in->host.uris.atom_Path && size > 1 &&
      !value[size - 1]) {
    path = map_path ? map_path->absolute_path(map_path->handle, value)
                    : copy_string(value);
    if (!path)
      return LV2_STATE_ERR_UNKNOWN;
  } else if (value) {
    lv2_log_error(&in->host.logger,
                  "%s: the saved modal table is not an atom:Path; playing "
                  "the mode ports\n",
                  in->cls->info->name);
  }

  LV2_State_Status status = LV2_STATE_SUCCESS;
  const size_t length = path ? strlen(path) : 0;
  if (schedule && length < OBJECT_PATH_SIZE) {
    work_load message = {WORK_LOAD_TABLE, 1, (uint32_t)length, ""};
    memcpy(message.path, path ? path : "", length + 1);
    if (schedule->schedule_work(
            schedule->handle,
            (uint32_t)(offsetof(work_load, path) + length + 1),
            &message) != LV2_WORKER_SUCCESS)
      status = LV2_STATE_ERR_NO_SPACE;
  } else {
    object_table* table = NULL;
    load_table(in, path ? path : "", true, &table);
    /* alone with the plugin: the old table can go at once */
    object_table_free_chain(in->table);
    in->table = NULL;
    swap_table(in, table);
  }
  if (path) {
    if (map_path)
      free_path(fp, path);
    else
      free(path);
  }
  return status;
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
  instrument* in = (instrument*)instance;
  uint32_t status = LV2_OPTIONS_SUCCESS;
  for (int i = 0; options && options[i].key; ++i) {
    if (options[i].key == in->host.uris.param_sampleRate) {
      in->rate_option = (float)in->host.sample_rate;
      options[i].size = sizeof(float);
      options[i].type = in->host.uris.atom_Float;
      options[i].value = &in->rate_option;
    } else {
      status |= LV2_OPTIONS_ERR_BAD_KEY;
    }
  }
  return status;
}

const void*
instrument_extension_data(const char* uri)
{
  static const LV2_Worker_Interface worker = {work, work_response, NULL};
  static const LV2_Options_Interface options = {options_get, options_set};
  static const LV2_State_Interface state = {state_save, state_restore};
  if (!strcmp(uri, LV2_WORKER__interface))
    return &worker;
  if (!strcmp(uri, LV2_STATE__interface))
    return &state;
  if (!strcmp(uri, LV2_OPTIONS__interface))
    return &options;
  return NULL;
}
