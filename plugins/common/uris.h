/* SPDX-License-Identifier: ISC */
/* URIDs used by the plugins (and, later, the UI), mapped once. */
#ifndef CONTACT_URIS_H
#define CONTACT_URIS_H

#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/urid/urid.h>

typedef struct contact_uris {
  LV2_URID atom_Float;
  LV2_URID atom_Int;
  LV2_URID atom_Sequence;
  LV2_URID bufsz_maxBlockLength;
  LV2_URID bufsz_nominalBlockLength;
  LV2_URID midi_MidiEvent;
  LV2_URID param_sampleRate;
} contact_uris;

static inline void
contact_uris_map(contact_uris* uris, LV2_URID_Map* map)
{
  uris->atom_Float = map->map(map->handle, LV2_ATOM__Float);
  uris->atom_Int = map->map(map->handle, LV2_ATOM__Int);
  uris->atom_Sequence = map->map(map->handle, LV2_ATOM__Sequence);
  uris->bufsz_maxBlockLength =
      map->map(map->handle, LV2_BUF_SIZE__maxBlockLength);
  uris->bufsz_nominalBlockLength =
      map->map(map->handle, LV2_BUF_SIZE__nominalBlockLength);
  uris->midi_MidiEvent = map->map(map->handle, LV2_MIDI__MidiEvent);
  uris->param_sampleRate = map->map(map->handle, LV2_PARAMETERS__sampleRate);
}

#endif
