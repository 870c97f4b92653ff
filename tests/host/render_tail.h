/* SPDX-License-Identifier: ISC */
/*
 * How contact-render ends a file, shared by the renderer and its test: past
 * the stated length it renders on until the output has stayed below
 * RENDER_QUIET_DBFS for RENDER_QUIET_MS (the sound has rung out), for at
 * most RENDER_TAIL_MAX extra seconds, and then fades the last
 * RENDER_FADE_MS to zero, so that no file ends with a step (a click).
 */
#ifndef CONTACT_RENDER_TAIL_H
#define CONTACT_RENDER_TAIL_H

/* s; the longest demo, the church bell (q = 4000 at 131 Hz: t_e = 9.7 s),
 * needs 82 s to ring out */
#define RENDER_TAIL_MAX   120
#define RENDER_QUIET_DBFS -90 /* dB, about the floor of 16-bit audio */
#define RENDER_QUIET_MS   100
#define RENDER_FADE_MS    5

#endif
