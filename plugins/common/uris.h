/* SPDX-License-Identifier: ISC */
/*
 * URIDs used by the plugins and the UI, mapped once, and the
 * patch messages about the modal table, written and read here only so
 * that plugin, UI and tests speak the same (eg-sampler's uris.h is the
 * model).
 *
 * The modal table is one parameter, urn:contact:modal_table (an
 * lv2:Parameter with rdfs:range atom:Path, patch:writable and
 * patch:readable on every instrument):
 *     [] a patch:Set ; patch:property <urn:contact:modal_table> ;
 *        patch:value "/path/bell.modes"^^atom:Path .
 * sets it (an empty path goes back to the 16 mode ports), and
 *     [] a patch:Get ; patch:property <urn:contact:modal_table> .
 * (or a patch:Get without a property) is answered on the notify port by a
 * patch:Set of the table in use.  The same URI keys the saved state.
 */
#ifndef CONTACT_URIS_H
#define CONTACT_URIS_H

#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/patch/patch.h>
#include <lv2/urid/urid.h>

#include "port_info.h"

#include <stdint.h>

typedef struct contact_uris {
  LV2_URID atom_Float;
  LV2_URID atom_Int;
  LV2_URID atom_Object;
  LV2_URID atom_Path;
  LV2_URID atom_Sequence;
  LV2_URID atom_URID;
  LV2_URID atom_eventTransfer;
  LV2_URID bufsz_maxBlockLength;
  LV2_URID bufsz_nominalBlockLength;
  LV2_URID contact_modal_table;
  LV2_URID midi_MidiEvent;
  LV2_URID param_sampleRate;
  LV2_URID patch_Get;
  LV2_URID patch_Set;
  LV2_URID patch_property;
  LV2_URID patch_value;
} contact_uris;

static inline void
contact_uris_map(contact_uris* uris, LV2_URID_Map* map)
{
  uris->atom_Float = map->map(map->handle, LV2_ATOM__Float);
  uris->atom_Int = map->map(map->handle, LV2_ATOM__Int);
  uris->atom_Object = map->map(map->handle, LV2_ATOM__Object);
  uris->atom_Path = map->map(map->handle, LV2_ATOM__Path);
  uris->atom_Sequence = map->map(map->handle, LV2_ATOM__Sequence);
  uris->atom_URID = map->map(map->handle, LV2_ATOM__URID);
  uris->atom_eventTransfer = map->map(map->handle, LV2_ATOM__eventTransfer);
  uris->bufsz_maxBlockLength =
      map->map(map->handle, LV2_BUF_SIZE__maxBlockLength);
  uris->bufsz_nominalBlockLength =
      map->map(map->handle, LV2_BUF_SIZE__nominalBlockLength);
  uris->contact_modal_table = map->map(map->handle, CONTACT_MODAL_TABLE_URI);
  uris->midi_MidiEvent = map->map(map->handle, LV2_MIDI__MidiEvent);
  uris->param_sampleRate = map->map(map->handle, LV2_PARAMETERS__sampleRate);
  uris->patch_Get = map->map(map->handle, LV2_PATCH__Get);
  uris->patch_Set = map->map(map->handle, LV2_PATCH__Set);
  uris->patch_property = map->map(map->handle, LV2_PATCH__property);
  uris->patch_value = map->map(map->handle, LV2_PATCH__value);
}

/* A patch:Set of the modal table to `path` (`length` bytes, no NUL; 0:
 * no table).  Returns the object's reference, 0 when it did not fit. */
static inline LV2_Atom_Forge_Ref
contact_write_set_table(LV2_Atom_Forge* forge, const contact_uris* uris,
                        const char* path, uint32_t length)
{
  LV2_Atom_Forge_Frame frame;
  LV2_Atom_Forge_Ref set =
      lv2_atom_forge_object(forge, &frame, 0, uris->patch_Set);
  if (!set)
    return 0;
  lv2_atom_forge_key(forge, uris->patch_property);
  lv2_atom_forge_urid(forge, uris->contact_modal_table);
  lv2_atom_forge_key(forge, uris->patch_value);
  if (!lv2_atom_forge_path(forge, path, length))
    return 0;
  lv2_atom_forge_pop(forge, &frame);
  return set;
}

/* A patch:Get of the modal table. */
static inline LV2_Atom_Forge_Ref
contact_write_get_table(LV2_Atom_Forge* forge, const contact_uris* uris)
{
  LV2_Atom_Forge_Frame frame;
  LV2_Atom_Forge_Ref get =
      lv2_atom_forge_object(forge, &frame, 0, uris->patch_Get);
  if (!get)
    return 0;
  lv2_atom_forge_key(forge, uris->patch_property);
  lv2_atom_forge_urid(forge, uris->contact_modal_table);
  lv2_atom_forge_pop(forge, &frame);
  return get;
}

/* The path of a patch:Set of the modal table (NUL-terminated, "" to clear
 * it), or NULL when `obj` is something else or malformed. */
static inline const char*
contact_read_set_table(const contact_uris* uris, const LV2_Atom_Object* obj)
{
  if (obj->atom.type != uris->atom_Object || obj->body.otype != uris->patch_Set)
    return NULL;
  const LV2_Atom* property = NULL;
  const LV2_Atom* value = NULL;
  lv2_atom_object_get(obj, uris->patch_property, &property, uris->patch_value,
                      &value, 0);
  if (!property || property->type != uris->atom_URID ||
      ((const LV2_Atom_URID*)property)->body != uris->contact_modal_table ||
      !value || value->type != uris->atom_Path || value->size == 0)
    return NULL;
  const char* path = (const char*)LV2_ATOM_BODY_CONST(value);
  /* the string's NUL must be in the atom */
  return path[value->size - 1] == '\0' ? path : NULL;
}

/* Whether `obj` is a patch:Get of the modal table (or of everything). */
static inline int
contact_is_get_table(const contact_uris* uris, const LV2_Atom_Object* obj)
{
  if (obj->atom.type != uris->atom_Object || obj->body.otype != uris->patch_Get)
    return 0;
  const LV2_Atom* property = NULL;
  lv2_atom_object_get(obj, uris->patch_property, &property, 0);
  return !property ||
         (property->type == uris->atom_URID &&
          ((const LV2_Atom_URID*)property)->body == uris->contact_modal_table);
}

#endif
