/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L
/*
 * The view over pugl-0: the only file that includes pugl (and GL).  cairo
 * draws into an image surface at the screen's scale; the surface is
 * uploaded into one texture and drawn as one quad.
 */
#include "view.h"

#include <pugl/pugl.h>

#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xresource.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef GL_BGRA
#define GL_BGRA 0x80E1
#endif

struct view {
  PuglView* pugl;
  view_client client;
  int w, h;     /* logical pixels */
  double scale; /* device pixels per logical pixel */
  cairo_surface_t* surface;
  cairo_t* cr;
  GLuint texture;
  bool texture_made;
  double pointer_x, pointer_y; /* the last pointer position, device px */
  GLXContext context;          /* pugl's, once it drew */
  unsigned frames;             /* frames drawn */
  /* what is to be drawn again, in device pixels (empty: nothing) */
  int dirty_x0, dirty_y0, dirty_x1, dirty_y1;
};

/* The screen's scale: CONTACT_UI_SCALE or GDK_SCALE when set (what GTK
 * hosts scale their own windows by), otherwise the X resource Xft.dpi over
 * 96 (what desktops set for 150 % and 200 %); 1 to 4. */
static double
screen_scale(void)
{
  double scale = 0.0;
  const char* env = getenv("CONTACT_UI_SCALE");
  if (!env || !*env)
    env = getenv("GDK_SCALE");
  if (env && *env)
    scale = strtod(env, NULL);
  if (!(scale > 0.0)) {
    Display* display = XOpenDisplay(NULL);
    if (display) {
      const char* resources = XResourceManagerString(display);
      if (resources) {
        XrmInitialize();
        XrmDatabase db = XrmGetStringDatabase(resources);
        char* type = NULL;
        XrmValue value;
        if (db && XrmGetResource(db, "Xft.dpi", "Xft.Dpi", &type, &value) &&
            value.addr)
          scale = strtod(value.addr, NULL) / 96.0;
        if (db)
          XrmDestroyDatabase(db);
      }
      XCloseDisplay(display);
    }
  }
  if (!(scale >= 1.0))
    return 1.0;
  return scale > 4.0 ? 4.0 : scale;
}

static view*
self(PuglView* pugl)
{
  return (view*)puglGetHandle(pugl);
}

static unsigned
modifiers(PuglView* pugl)
{
  const int mods = puglGetModifiers(pugl);
  return ((mods & PUGL_MOD_SHIFT) ? VIEW_MOD_SHIFT : 0u) |
         ((mods & PUGL_MOD_CTRL) ? VIEW_MOD_CTRL : 0u);
}

static void
on_reshape(PuglView* pugl, int width, int height)
{
  (void)pugl;
  glViewport(0, 0, width, height);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, width, height, 0, -1, 1);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
}

/* cairo draws the dirty area again */
static void
draw_dirty(view* v, int x0, int y0, int w, int h)
{
  cairo_save(v->cr);
  cairo_rectangle(v->cr, x0, y0, w, h);
  cairo_clip(v->cr);
  cairo_scale(v->cr, v->scale, v->scale);
  v->client.draw(v->client.handle, v->cr, x0 / v->scale, y0 / v->scale,
                 w / v->scale, h / v->scale);
  cairo_restore(v->cr);
  cairo_surface_flush(v->surface);
}

/* the surface into the texture: all of it the first time, then the dirty
 * area */
static void
upload(view* v, int x0, int y0, int w, int h)
{
  const int pw = cairo_image_surface_get_width(v->surface);
  const int ph = cairo_image_surface_get_height(v->surface);
  const unsigned char* data = cairo_image_surface_get_data(v->surface);
  glPixelStorei(GL_UNPACK_ROW_LENGTH,
                cairo_image_surface_get_stride(v->surface) / 4);
  if (!v->texture_made) {
    glGenTextures(1, &v->texture);
    glBindTexture(GL_TEXTURE_2D, v->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, pw, ph, 0, GL_BGRA,
                 GL_UNSIGNED_BYTE, data);
    v->texture_made = true;
    return;
  }
  glBindTexture(GL_TEXTURE_2D, v->texture);
  if (w > 0 && h > 0) {
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, x0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, y0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, x0, y0, w, h, GL_BGRA, GL_UNSIGNED_BYTE,
                    data);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  }
}

/*
 * Whether the back buffer still holds the frame drawn last, so that only
 * the dirty area need be drawn into it.  A software GL (llvmpipe on Xvfb,
 * a VM) copies the back buffer on every swap and keeps it, and there a
 * full-window quad costs milliseconds; a GPU may hand back an older
 * buffer, or one with nothing in it.  Each frame writes its number into
 * the bottom-right pixel (low bits only: the colour does not visibly
 * change); the next frame reads it back.
 */
static bool
holds_last_frame(const view* v)
{
  if (!v->frames)
    return false;
  unsigned char pixel[4] = {0, 0, 0, 0};
  const int pw = cairo_image_surface_get_width(v->surface);
  glReadBuffer(GL_BACK);
  glReadPixels(pw - 1, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  return (pixel[0] & 0x0F) == (v->frames & 0x0F) &&
         (pixel[1] & 0x0F) == ((v->frames >> 4) & 0x0F) &&
         (pixel[2] & 0x0F) == ((v->frames >> 8) & 0x0F);
}

static void
stamp_frame(view* v)
{
  const int pw = cairo_image_surface_get_width(v->surface);
  const int ph = cairo_image_surface_get_height(v->surface);
  const unsigned n = ++v->frames;
  /* the texture's own pixel there, its low bits the frame number */
  const uint32_t argb =
      *(const uint32_t*)(const void*)(cairo_image_surface_get_data(v->surface) +
                                      (size_t)(ph - 1) *
                                          cairo_image_surface_get_stride(
                                              v->surface) +
                                      (size_t)(pw - 1) * 4);
  const unsigned r = ((argb >> 16) & 0xF0) | (n & 0x0F);
  const unsigned g = ((argb >> 8) & 0xF0) | ((n >> 4) & 0x0F);
  const unsigned b = (argb & 0xF0) | ((n >> 8) & 0x0F);
  glScissor(pw - 1, 0, 1, 1);
  glClearColor(r / 255.0f, g / 255.0f, b / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

static void
on_display(PuglView* pugl)
{
  view* v = self(pugl);
  v->context = glXGetCurrentContext();
  const int pw = cairo_image_surface_get_width(v->surface);
  const int ph = cairo_image_surface_get_height(v->surface);
  const int x0 = v->dirty_x0, y0 = v->dirty_y0;
  const int w = v->dirty_x1 - x0, h = v->dirty_y1 - y0;
  const bool dirty = w > 0 && h > 0;
  if (dirty)
    draw_dirty(v, x0, y0, w, h);
  upload(v, x0, y0, w, h);
  v->dirty_x0 = v->dirty_y0 = v->dirty_x1 = v->dirty_y1 = 0;

  /* the quad, over the dirty area only when the back buffer holds the
   * rest (pugl-0 clears the buffer before this: the scissor left empty at
   * the end of the last frame keeps that clear from touching it) */
  glEnable(GL_SCISSOR_TEST);
  if (dirty && holds_last_frame(v))
    glScissor(x0, ph - (y0 + h), w, h); /* GL counts rows from the bottom */
  else
    glScissor(0, 0, pw, ph);
  glEnable(GL_TEXTURE_2D);
  glColor4f(1, 1, 1, 1);
  glBegin(GL_QUADS); /* texture row 0 (cairo's top) at the top */
  glTexCoord2f(0, 0);
  glVertex2f(0, 0);
  glTexCoord2f(1, 0);
  glVertex2f((float)pw, 0);
  glTexCoord2f(1, 1);
  glVertex2f((float)pw, (float)ph);
  glTexCoord2f(0, 1);
  glVertex2f(0, (float)ph);
  glEnd();
  glDisable(GL_TEXTURE_2D);
  stamp_frame(v);
  glScissor(0, 0, 0, 0);
}

static void
on_mouse(PuglView* pugl, int button, bool press, int x, int y)
{
  view* v = self(pugl);
  v->pointer_x = x;
  v->pointer_y = y;
  if (v->client.press)
    v->client.press(v->client.handle, button, press, x / v->scale, y / v->scale,
                    modifiers(pugl));
}

static void
on_motion(PuglView* pugl, int x, int y)
{
  view* v = self(pugl);
  v->pointer_x = x;
  v->pointer_y = y;
  if (v->client.motion)
    v->client.motion(v->client.handle, x / v->scale, y / v->scale,
                     modifiers(pugl));
}

static void
on_scroll(PuglView* pugl, float dx, float dy)
{
  /* pugl-0 turns the wheel (X11 buttons 4 and 5) into this, without the
   * pointer's position: the last one seen stands for it */
  view* v = self(pugl);
  (void)dx;
  if (dy != 0.0f && v->client.scroll)
    v->client.scroll(v->client.handle, v->pointer_x / v->scale,
                     v->pointer_y / v->scale, dy, modifiers(pugl));
}

static void
on_keyboard(PuglView* pugl, bool press, uint32_t key)
{
  view* v = self(pugl);
  if (press && v->client.key)
    v->client.key(v->client.handle, key, VIEW_KEY_NONE, modifiers(pugl));
}

static void
on_special(PuglView* pugl, bool press, PuglKey key)
{
  view* v = self(pugl);
  const view_key special = key == PUGL_KEY_LEFT    ? VIEW_KEY_LEFT
                           : key == PUGL_KEY_RIGHT ? VIEW_KEY_RIGHT
                           : key == PUGL_KEY_UP    ? VIEW_KEY_UP
                           : key == PUGL_KEY_DOWN  ? VIEW_KEY_DOWN
                                                   : VIEW_KEY_NONE;
  if (press && special != VIEW_KEY_NONE && v->client.key)
    v->client.key(v->client.handle, 0, special, modifiers(pugl));
}

static void
on_close(PuglView* pugl)
{
  view* v = self(pugl);
  if (v->client.close)
    v->client.close(v->client.handle);
}

view*
view_create(uintptr_t parent, const char* title, int w, int h,
            const view_client* client)
{
  view* v = calloc(1, sizeof(view));
  if (!v)
    return NULL;
  v->client = *client;
  v->w = w;
  v->h = h;
  v->scale = screen_scale();
  const int pw = (int)lround(w * v->scale), ph = (int)lround(h * v->scale);
  v->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
  v->dirty_x1 = pw;
  v->dirty_y1 = ph;
  v->cr = cairo_create(v->surface);
  if (cairo_status(v->cr) != CAIRO_STATUS_SUCCESS) {
    view_destroy(v);
    return NULL;
  }
  /* pugl-0 exits the process when there is no display; ask first */
  Display* display = XOpenDisplay(NULL);
  if (!display) {
    view_destroy(v);
    return NULL;
  }
  XCloseDisplay(display);
  v->pugl = puglCreate((PuglNativeWindow)parent, title, pw, ph, false);
  if (!v->pugl) {
    view_destroy(v);
    return NULL;
  }
  puglSetHandle(v->pugl, v);
  puglSetDisplayFunc(v->pugl, on_display);
  puglSetReshapeFunc(v->pugl, on_reshape);
  puglSetMouseFunc(v->pugl, on_mouse);
  puglSetMotionFunc(v->pugl, on_motion);
  puglSetScrollFunc(v->pugl, on_scroll);
  puglSetKeyboardFunc(v->pugl, on_keyboard);
  puglSetSpecialFunc(v->pugl, on_special);
  puglSetCloseFunc(v->pugl, on_close);
  puglIgnoreKeyRepeat(v->pugl, false);
  /* pugl-0 creates its window on a connection of its own and does not
   * flush it: a host that looks the window up at once (suil, for
   * jalv.gtk3 and Ardour) gets BadWindow.  Processing the events once
   * flushes the connection; with a redisplay asked for, it also draws
   * the first frame now, while the host opens the UI (the first frame
   * makes the texture and, on a software GL, compiles its shaders: tens
   * of ms that idle() should not take). */
  puglPostRedisplay(v->pugl);
  puglProcessEvents(v->pugl);
  return v;
}

void
view_destroy(view* v)
{
  if (!v)
    return;
  /* pugl-0 destroys its GL context while it is still current and then
   * closes the display: Mesa keeps the context current on the closed
   * display, and the next view's first GL call writes to it (the X server
   * then sees garbage: BadRequest, or a crash).  Release it first; the
   * texture goes with the context. */
  if (v->context && glXGetCurrentContext() == v->context)
    glXMakeCurrent(glXGetCurrentDisplay(), None, NULL);
  if (v->pugl)
    puglDestroy(v->pugl);
  if (v->cr)
    cairo_destroy(v->cr);
  if (v->surface)
    cairo_surface_destroy(v->surface);
  free(v);
}

uintptr_t
view_native(const view* v)
{
  return (uintptr_t)puglGetNativeWindow(v->pugl);
}

double
view_scale(const view* v)
{
  return v->scale;
}

void
view_size(const view* v, int* w, int* h)
{
  *w = cairo_image_surface_get_width(v->surface);
  *h = cairo_image_surface_get_height(v->surface);
}

void
view_redraw_area(view* v, double x, double y, double w, double h)
{
  /* whole device pixels covering the area, inside the surface */
  const int pw = cairo_image_surface_get_width(v->surface);
  const int ph = cairo_image_surface_get_height(v->surface);
  int x0 = (int)floor(x * v->scale), y0 = (int)floor(y * v->scale);
  int x1 = (int)ceil((x + w) * v->scale), y1 = (int)ceil((y + h) * v->scale);
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 > pw ? pw : x1;
  y1 = y1 > ph ? ph : y1;
  if (x1 <= x0 || y1 <= y0)
    return;
  if (v->dirty_x1 <= v->dirty_x0 || v->dirty_y1 <= v->dirty_y0) {
    v->dirty_x0 = x0, v->dirty_y0 = y0, v->dirty_x1 = x1, v->dirty_y1 = y1;
  } else {
    v->dirty_x0 = x0 < v->dirty_x0 ? x0 : v->dirty_x0;
    v->dirty_y0 = y0 < v->dirty_y0 ? y0 : v->dirty_y0;
    v->dirty_x1 = x1 > v->dirty_x1 ? x1 : v->dirty_x1;
    v->dirty_y1 = y1 > v->dirty_y1 ? y1 : v->dirty_y1;
  }
  puglPostRedisplay(v->pugl);
}

void
view_redraw(view* v)
{
  view_redraw_area(v, 0, 0, v->w, v->h);
}

void
view_process(view* v)
{
  puglProcessEvents(v->pugl);
}
