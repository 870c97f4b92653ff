/* SPDX-License-Identifier: ISC */
/*
 * A window that shows a cairo drawing: the one place that knows pugl (the
 * 2012 pugl-0 API of Debian's libpugl-dev) and OpenGL.  The client draws
 * into a cairo image surface in logical pixels; the view scales it to the
 * screen, uploads it as a texture and draws it as one quad, and hands
 * pointer and key events back in logical pixels.
 */
#ifndef CONTACT_VIEW_H
#define CONTACT_VIEW_H

#include <cairo.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct view view;

typedef enum view_key {
  VIEW_KEY_NONE,
  VIEW_KEY_LEFT,
  VIEW_KEY_RIGHT,
  VIEW_KEY_UP,
  VIEW_KEY_DOWN,
} view_key;

enum view_modifier {
  VIEW_MOD_SHIFT = 1u << 0,
  VIEW_MOD_CTRL = 1u << 1,
};

typedef struct view_client {
  void* handle;
  /* draw the area (x, y, w, h) of the window, in logical pixels (cairo
   * is clipped to it: drawing more is harmless, only slower) */
  void (*draw)(void* handle, cairo_t* cr, double x, double y, double w,
               double h);
  void (*press)(void* handle, int button, bool down, double x, double y,
                unsigned modifiers);
  void (*motion)(void* handle, double x, double y, unsigned modifiers);
  void (*scroll)(void* handle, double x, double y, double dy,
                 unsigned modifiers);
  /* a character (Unicode point) or a special key */
  void (*key)(void* handle, uint32_t character, view_key special,
              unsigned modifiers);
  void (*close)(void* handle);
} view_client;

/* A view of w x h logical pixels, embedded in `parent` (an X11 window; 0
 * for a window of its own), titled `title`.  NULL if it could not be
 * made (no display, no OpenGL). */
view* view_create(uintptr_t parent, const char* title, int w, int h,
                  const view_client* client);
void view_destroy(view* v);

/* the X11 window, for the host */
uintptr_t view_native(const view* v);
/* the screen's scale (1 at 100 %, 2 at 200 %) and the size in pixels */
double view_scale(const view* v);
void view_size(const view* v, int* w, int* h);

/* Ask for the drawing to be redone at the next view_process(): all of it,
 * or an area (logical pixels) of it. */
void view_redraw(view* v);
void view_redraw_area(view* v, double x, double y, double w, double h);
/* Handle the pending window events (and the redraw): call from idle. */
void view_process(view* v);

#endif
