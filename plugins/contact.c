/* SPDX-License-Identifier: ISC */
/* The one entry point of contact.so: every instrument of the suite. */
#include "instrument.h"

#include <lv2/core/lv2.h>

#include <stddef.h>

extern const instrument_class impact_class;
extern const instrument_class friction_class;
extern const instrument_class rolling_class;

LV2_SYMBOL_EXPORT const LV2_Descriptor*
lv2_descriptor(uint32_t index)
{
  switch (index) {
  case 0:
    return &impact_class.descriptor;
  case 1:
    return &friction_class.descriptor;
  case 2:
    return &rolling_class.descriptor;
  default:
    return NULL;
  }
}
