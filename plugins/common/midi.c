/* SPDX-License-Identifier: ISC */
#include "midi.h"

bool
midi_parse(const uint8_t* data, uint32_t size, midi_message* msg)
{
  if (!data || size == 0 || data[0] < 0x80)
    return false;
  const uint8_t status = data[0];
  if (status >= 0xF0) {
    if (status == 0xF0) /* system exclusive must end with 0xF7 */
      return size >= 2 && data[size - 1] == 0xF7;
    msg->kind = MIDI_SYSTEM;
    return true;
  }
  const uint32_t length =
      (status & 0xF0) == 0xC0 || (status & 0xF0) == 0xD0 ? 2 : 3;
  if (size < length)
    return false;
  for (uint32_t i = 1; i < length; ++i)
    if (data[i] >= 0x80)
      return false;

  msg->channel = status & 0x0F;
  msg->data1 = data[1];
  msg->data2 = length == 3 ? data[2] : 0;
  msg->bend = 0;
  switch (status & 0xF0) {
  case 0x80:
    msg->kind = MIDI_NOTE_OFF;
    break;
  case 0x90:
    msg->kind = msg->data2 ? MIDI_NOTE_ON : MIDI_NOTE_OFF;
    break;
  case 0xA0:
    msg->kind = MIDI_POLY_PRESSURE;
    break;
  case 0xB0:
    msg->kind = MIDI_CONTROL;
    break;
  case 0xC0:
    msg->kind = MIDI_PROGRAM;
    break;
  case 0xD0:
    msg->kind = MIDI_CHANNEL_PRESSURE;
    break;
  default: /* 0xE0 */
    msg->kind = MIDI_PITCH_BEND;
    msg->bend = ((int)data[2] << 7 | data[1]) - 8192;
    break;
  }
  return true;
}
