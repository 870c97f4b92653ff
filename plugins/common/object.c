/* SPDX-License-Identifier: ISC */
#include "object.h"

#include <math.h>

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

void
object_tune(const object_settings* s, modal_object* o, int note, double bend,
            bool damped)
{
  const double semitones = (s->pitch_track ? note - s->root_note : 0) + bend;
  const double ratio = exp2(semitones / 12.0);
  const double damper_rate = damped ? 1.0 / s->damper_decay : 0.0;
  modal_set_count(o, s->modes);
  modal_set_mass(o, s->mass);
  modal_set_width(o, s->width);
  for (int i = 0; i < s->modes; ++i) {
    const double decay = s->decay[i] / ratio;
    modal_set_mode(o, i, s->freq[i] * ratio, 1.0 / (1.0 / decay + damper_rate),
                   s->gain_of_mode[i]);
  }
  modal_update(o);
}
