/* SPDX-License-Identifier: ISC */
#include "voices.h"

int
voices_find(const voice_slot* slots, int n_slots, int note)
{
  for (int i = 0; i < n_slots; ++i)
    if (slots[i].sounding && slots[i].note == note && slots[i].fade >= 1.0f)
      return i;
  return -1;
}

/* quieter first, then older first */
static bool
better_victim(const voice_slot* a, const voice_slot* b)
{
  if (a->level != b->level)
    return a->level < b->level;
  return (int32_t)(a->started - b->started) < 0;
}

int
voices_allocate(voice_slot* slots, int n_slots, int polyphony, int fade_samples)
{
  int free_slot = -1;
  int playing = 0;
  int victim = -1;
  int faded = -1;
  int parked = -1;
  for (int i = 0; i < n_slots; ++i) {
    const voice_slot* s = &slots[i];
    if (!s->sounding) {
      if (free_slot < 0)
        free_slot = i;
    } else if (s->resting) {
      if (parked < 0)
        parked = i; /* at rest and silent: free for the taking */
    } else if (s->fade >= 1.0f) {
      ++playing;
      if (victim < 0 || better_victim(s, &slots[victim]))
        victim = i;
    } else if (faded < 0 || s->fade < slots[faded].fade) {
      faded = i;
    }
  }
  if (free_slot < 0)
    free_slot = parked;
  if (playing >= polyphony && victim >= 0) {
    slots[victim].fade_step =
        1.0f / (float)(fade_samples > 0 ? fade_samples : 1);
    slots[victim].fade = 0.999999f; /* fading from now on */
  }
  if (free_slot >= 0)
    return free_slot;
  if (faded >= 0)
    return faded;
  return victim >= 0 ? victim : 0;
}
