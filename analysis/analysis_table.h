/* SPDX-License-Identifier: ISC */
/*
 * An analysis as a modal table (dsp/modal_table.h), and saving it where a
 * plugin's state can keep it.
 */
#ifndef CONTACT_ANALYSIS_TABLE_H
#define CONTACT_ANALYSIS_TABLE_H

#include "modal_analysis.h"
#include "modal_table.h"

#include <stddef.h>

/* The result's modes as a table named `name`, with its root note and,
 * for a stereo recording, the second channel's gains as right_gain. */
void analysis_table_of(const analysis_result* result, const char* name,
                       modal_table* table);

/* A table's name from its recording's path: the file's name without its
 * folders and extension (cut to size - 1 bytes). */
void analysis_table_name_of(const char* recording, char* name, size_t size);

/* The MIDI note a recording's name (its path's file name, or a sample's
 * name) ends with: the last of the form [A-G][#bs]? ' '? -?[0-9] standing
 * apart from letters before it (C4 = 60): "marimba C4.wav", "Xylophone F#
 * 5", "bell_Eb-1"; false if none. */
bool analysis_table_note_of_name(const char* path, double* note);

/* Writes `table` as NAME.modes in `folder` (made if missing), or
 * NAME-2.modes, NAME-3.modes, ... if that exists: a table a saved session
 * plays is never overwritten.  The path written goes to `path` (size
 * bytes); false on failure with a sentence in `message`. */
bool analysis_table_save(const modal_table* table, const char* folder,
                         char* path, size_t size, char* message,
                         size_t message_size);

/* The folder analysed tables go to: $XDG_DATA_HOME/contact/tables, or
 * ~/.local/share/contact/tables; false if neither variable is set. */
bool analysis_table_folder(char* folder, size_t size);

#endif
