/* SPDX-License-Identifier: ISC */
#include "object.h"

#include <math.h>
#include <stdlib.h>

void
object_table_free_chain(object_table* t)
{
  while (t) {
    object_table* next = t->next;
    shape_set_free(t->shapes);
    free(t);
    t = next;
  }
}

void
object_settings_read(object_settings* s, const float* values)
{
  s->modes = (int)values[OBJECT_MODES];
  s->mass = values[OBJECT_MASS];
  s->pitch_track = values[OBJECT_PITCH_TRACK] > 0.5f;
  s->root_note = (int)values[OBJECT_ROOT_NOTE];
  s->bend_range = values[OBJECT_BEND_RANGE];
  s->damper = values[OBJECT_DAMPER] > 0.5f;
  s->damper_decay = 1e-3 * values[OBJECT_DAMPER_DECAY];
  s->width = values[OBJECT_WIDTH];
  s->gain = pow(10.0, values[OBJECT_GAIN] / 20.0);
  for (int i = 0; i < OBJECT_TABLE_SIZE; ++i) {
    s->freq[i] = values[OBJECT_MODE_FREQ(i)];
    s->decay[i] = 1e-3 * values[OBJECT_MODE_DECAY(i)];
    s->gain_of_mode[i] = values[OBJECT_MODE_GAIN(i)];
  }
}

const modal_table*
object_zone(const object_settings* s, int note)
{
  if (!s->table)
    return NULL;
  const modal_keymap* map = &s->table->map;
  return &map->zone[modal_keymap_zone_of(
      map, s->pitch_track ? (double)note : (double)s->root_note)];
}

int
object_mode_count(const object_settings* s, int note)
{
  const modal_table* t = object_zone(s, note);
  const int have = t ? t->count : OBJECT_TABLE_SIZE;
  return s->modes < have ? s->modes : have;
}

double
object_root(const object_settings* s, int note)
{
  const modal_table* t = object_zone(s, note);
  return t && t->root >= 0.0 ? t->root : (double)s->root_note;
}

void
object_tune(const object_settings* s, modal_object* o, int note, double bend,
            bool damped)
{
  object_tune_ring_out(s, o, note, bend, damped, 0);
}

void
object_tune_ring_out(const object_settings* s, modal_object* o, int note,
                     double bend, bool damped, int ring_out)
{
  const double root = object_root(s, note);
  const double semitones = (s->pitch_track ? note - root : 0) + bend;
  const double ratio = exp2(semitones / 12.0);
  const double damper_rate = damped ? 1.0 / s->damper_decay : 0.0;
  const int count = object_mode_count(s, note);
  const int total = ring_out <= count            ? count
                    : ring_out > MODAL_MAX_MODES ? MODAL_MAX_MODES
                                                 : ring_out;
  /* a table's modes take the same transposition and damper as the port
   * modes, under their keymap's law (constant q for a plain table and the
   * ports): only where the numbers come from differs */
  const modal_table* t = object_zone(s, note);
  const modal_keymap_law law =
      s->table ? s->table->map.law : modal_keymap_constant_q();
  const double root_hz = modal_keymap_note_hz(root);
  modal_set_count(o, total);
  modal_set_mass(o, s->mass);
  modal_set_width(o, s->width);
  for (int i = 0; i < count; ++i) {
    double freq = t ? t->freq[i] : s->freq[i];
    double decay = t ? t->decay[i] : s->decay[i];
    modal_keymap_transpose(&law, root_hz, ratio, &freq, &decay);
    const double gain = t ? t->gain[i] : s->gain_of_mode[i];
    modal_set_mode(o, i, freq, 1.0 / (1.0 / decay + damper_rate), gain);
    /* the table's second pickup q: phi(q) / phi(p) = right_gain / gain (a
     * mode that p does not drive stays silent whatever q hears) */
    const bool table_q = t && t->has_right_gain;
    modal_set_pickup_shape(o, i,
                           !table_q     ? modal_mirror_shape(i)
                           : gain > 0.0 ? t->right_gain[i] / gain
                                        : 0.0);
  }
  /* modes the table no longer has ring out where they are, deaf */
  for (int i = count; i < total; ++i) {
    modal_set_mode(o, i, o->freq[i], fmin(o->decay[i], OBJECT_RING_OUT_S), 0.0);
    modal_set_pickup_shape(o, i, modal_mirror_shape(i));
  }
  modal_update(o);
}
