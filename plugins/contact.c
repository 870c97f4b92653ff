/* SPDX-License-Identifier: ISC */
/* The one entry point of contact.so: every instrument of the suite. */
#include <lv2/core/lv2.h>

#include <stddef.h>

extern const LV2_Descriptor impact_descriptor;
extern const LV2_Descriptor friction_descriptor;

LV2_SYMBOL_EXPORT const LV2_Descriptor*
lv2_descriptor(uint32_t index)
{
  switch (index) {
  case 0:
    return &impact_descriptor;
  case 1:
    return &friction_descriptor;
  default:
    return NULL;
  }
}
