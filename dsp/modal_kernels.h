/* SPDX-License-Identifier: ISC */
/* The per-mode loops of modal.c, included by it once per instruction set
 * (see there) with
 *   KERNEL_LANES   doubles per vector: as wide as the set's registers
 *   KERNEL(name)   the name of this set's copy of `name`
 *   KERNEL_TARGET  the function attribute that selects the set
 *   KERNEL_EXPORT  how an entry point is declared (static when modal.c
 *                  dispatches to it)
 * The loops work on vectors of KERNEL_LANES modes (GCC and clang vector
 * extensions).  Mode l sits in lane l % KERNEL_LANES, an even number, so
 * the even lanes hold the odd-numbered modes (1, 3, ...) and the odd lanes
 * the even-numbered ones: while the pickup shapes alternate (the mirror
 * point, modal.h) the right pickup, weight 1 on the first and 1 - 2 width
 * on the second, is read off the lanes of the left pickup's sum with no
 * pass of its own.  Other shapes need the right pickup summed with its
 * weights: each loop that yields it is one always-inline body with a
 * constant `shaped`, chosen once per call, so the alternating loops stay
 * as they were.  With mode shapes (`weighted`, modal.h) the force enters
 * each mode through its phi(p), and the point and the left pickup are
 * weighted sums; the right pickup is a third, or, at the left one's mirror
 * point (its phi +-phi(left), alternating), comes off the left one's
 * lanes. */
typedef double KERNEL(modal_vec)
    __attribute__((vector_size(KERNEL_LANES * sizeof(double)), may_alias));
#define modal_vec KERNEL(modal_vec)

/* the arrays are aligned to 64 bytes and padded to whole vectors */
#define LOAD(p)         (*(const modal_vec*)(p))
#define STORE(p, value) (*(modal_vec*)(p) = (value))

/* The lanes folded pairwise (a tree: short dependency chains for the
 * contact solver waiting on the sums): lane 0 ends with the even lanes'
 * sum, lane 1 with the odd lanes'. */
static DSP_INLINE KERNEL_TARGET void
KERNEL(lanes_fold)(const modal_vec* a, double* even, double* odd)
{
  double f[KERNEL_LANES];
  memcpy(f, a, sizeof(f));
  for (int w = KERNEL_LANES / 2; w >= 2; w /= 2)
    for (int k = 0; k < w; ++k)
      f[k] += f[k + w];
  *even = f[0];
  *odd = f[1];
}

static DSP_INLINE KERNEL_TARGET double
KERNEL(lanes_sum)(const modal_vec* a)
{
  double even, odd;
  KERNEL(lanes_fold)(a, &even, &odd);
  return even + odd;
}

/* the pickups from the lanes of the interaction point's velocity sum */
static DSP_INLINE KERNEL_TARGET void
KERNEL(lanes_pickups)(const modal_object* o, const modal_vec* sv, double* left,
                      double* right)
{
  double even, odd;
  KERNEL(lanes_fold)(sv, &even, &odd);
  *left = even + odd;
  *right = even + (1.0 - 2.0 * o->width) * odd;
}

/* Free ringing goes by chunks of two vectors of modes held in registers
 * over up to RING_FRAMES samples, each chunk adding its velocities into
 * one vector per sample; the pickups are read off those sums' lanes at the
 * end.  The arithmetic of each mode and sample is the same however the
 * frames are split, so the output does not depend on the host's blocks. */
static DSP_INLINE KERNEL_TARGET void
KERNEL(ring_chunk)(modal_object* o, int l, int pair, bool shaped, bool weighted,
                   int len, modal_vec* acc, modal_vec* acc_r)
{
  const int k = KERNEL_LANES;
  const modal_coeffs* c = &o->audio;
  double* x = o->x;
  double* v = o->v;
  const modal_vec r0 = LOAD(o->pickup_r + l);
  const modal_vec p0 = LOAD(o->pickup_l + l);
  const modal_vec a11 = LOAD(c->a11 + l), a12 = LOAD(c->a12 + l);
  const modal_vec a21 = LOAD(c->a21 + l), a22 = LOAD(c->a22 + l);
  modal_vec x0 = LOAD(x + l), v0 = LOAD(v + l);
  if (pair) {
    const modal_vec b11 = LOAD(c->a11 + l + k), b12 = LOAD(c->a12 + l + k);
    const modal_vec b21 = LOAD(c->a21 + l + k), b22 = LOAD(c->a22 + l + k);
    modal_vec x1 = LOAD(x + l + k), v1 = LOAD(v + l + k);
    const modal_vec r1 = LOAD(o->pickup_r + l + k);
    const modal_vec p1 = LOAD(o->pickup_l + l + k);
    for (int t = 0; t < len; ++t) {
      const modal_vec xn0 = a11 * x0 + a12 * v0;
      const modal_vec vn0 = a21 * x0 + a22 * v0;
      const modal_vec xn1 = b11 * x1 + b12 * v1;
      const modal_vec vn1 = b21 * x1 + b22 * v1;
      x0 = xn0;
      v0 = vn0;
      x1 = xn1;
      v1 = vn1;
      if (weighted)
        acc[t] += p0 * vn0 + p1 * vn1;
      else
        acc[t] += vn0 + vn1;
      if (shaped)
        acc_r[t] += r0 * vn0 + r1 * vn1;
    }
    STORE(x + l + k, x1);
    STORE(v + l + k, v1);
  } else {
    for (int t = 0; t < len; ++t) {
      const modal_vec xn0 = a11 * x0 + a12 * v0;
      const modal_vec vn0 = a21 * x0 + a22 * v0;
      x0 = xn0;
      v0 = vn0;
      if (weighted)
        acc[t] += p0 * vn0;
      else
        acc[t] += vn0;
      if (shaped)
        acc_r[t] += r0 * vn0;
    }
  }
  STORE(x + l, x0);
  STORE(v + l, v0);
}

/* The velocity sums of len samples of o's free ringing, chunk by chunk,
 * into acc (and acc_r when shaped). */
static DSP_INLINE KERNEL_TARGET void
KERNEL(ring_sums)(modal_object* o, int len, bool shaped, bool weighted,
                  modal_vec* acc, modal_vec* acc_r)
{
  const int n = o->n;
  memset(acc, 0, sizeof(acc[0]) * (size_t)len);
  if (shaped)
    memset(acc_r, 0, sizeof(acc_r[0]) * (size_t)len);
  for (int l = 0; l < n; l += 2 * KERNEL_LANES) {
    if (l + KERNEL_LANES < n)
      KERNEL(ring_chunk)(o, l, 1, shaped, weighted, len, acc, acc_r);
    else
      KERNEL(ring_chunk)(o, l, 0, shaped, weighted, len, acc, acc_r);
  }
}

static DSP_INLINE KERNEL_TARGET void
KERNEL(ring)(modal_object* o, int frames, float* out_l, float* out_r,
             double scale, bool shaped, bool weighted)
{
  modal_vec acc[RING_FRAMES], acc_r[RING_FRAMES];
  for (int t0 = 0; t0 < frames; t0 += RING_FRAMES) {
    const int len = frames - t0 < RING_FRAMES ? frames - t0 : RING_FRAMES;
    KERNEL(ring_sums)(o, len, shaped, weighted, acc, acc_r);
    for (int t = 0; t < len; ++t) {
      double left, right;
      if (shaped) {
        left = KERNEL(lanes_sum)(&acc[t]);
        right = KERNEL(lanes_sum)(&acc_r[t]);
      } else {
        KERNEL(lanes_pickups)(o, &acc[t], &left, &right);
      }
      out_l[t0 + t] += (float)(scale * left);
      out_r[t0 + t] += (float)(scale * right);
    }
  }
}

/* modal_ring() of o, and of e heard at e_scale, in one pass over the
 * frames: e's modes (at most two vectors) are stepped in registers in the
 * loop that writes the output, so that a few exciter modes cost what
 * their modes do, not another pass over the frames.  e is heard where it
 * touches (not weighted, width 0: both pickups its point's velocity;
 * modal_ring_with() checks, and takes other exciters in two passes). */
static DSP_INLINE KERNEL_TARGET void
KERNEL(ring_with)(modal_object* o, modal_object* e, double e_scale, int frames,
                  float* out_l, float* out_r, double scale, bool shaped,
                  bool weighted, bool e_pair)
{
  const int k = KERNEL_LANES;
  const modal_coeffs* c = &e->audio;
  const modal_vec a11 = LOAD(c->a11), a12 = LOAD(c->a12);
  const modal_vec a21 = LOAD(c->a21), a22 = LOAD(c->a22);
  /* the arrays hold at least MODAL_LANES (two vectors here), zero past
   * the modes */
  const modal_vec b11 = LOAD(c->a11 + k), b12 = LOAD(c->a12 + k);
  const modal_vec b21 = LOAD(c->a21 + k), b22 = LOAD(c->a22 + k);
  modal_vec x0 = LOAD(e->x), v0 = LOAD(e->v);
  modal_vec x1 = LOAD(e->x + k), v1 = LOAD(e->v + k);
  modal_vec acc[RING_FRAMES], acc_r[RING_FRAMES];
  for (int t0 = 0; t0 < frames; t0 += RING_FRAMES) {
    const int len = frames - t0 < RING_FRAMES ? frames - t0 : RING_FRAMES;
    KERNEL(ring_sums)(o, len, shaped, weighted, acc, acc_r);
    for (int t = 0; t < len; ++t) {
      double left, right;
      if (shaped) {
        left = KERNEL(lanes_sum)(&acc[t]);
        right = KERNEL(lanes_sum)(&acc_r[t]);
      } else {
        KERNEL(lanes_pickups)(o, &acc[t], &left, &right);
      }
      const modal_vec xn0 = a11 * x0 + a12 * v0;
      const modal_vec vn0 = a21 * x0 + a22 * v0;
      x0 = xn0;
      v0 = vn0;
      modal_vec sum = vn0;
      if (e_pair) {
        const modal_vec xn1 = b11 * x1 + b12 * v1;
        const modal_vec vn1 = b21 * x1 + b22 * v1;
        x1 = xn1;
        v1 = vn1;
        sum += vn1;
      }
      const double heard = e_scale * KERNEL(lanes_sum)(&sum);
      out_l[t0 + t] += (float)(scale * (left + heard));
      out_r[t0 + t] += (float)(scale * (right + heard));
    }
  }
  STORE(e->x, x0);
  STORE(e->v, v0);
  if (e_pair) {
    STORE(e->x + k, x1);
    STORE(e->v + k, v1);
  }
}

KERNEL_EXPORT void
KERNEL(modal_ring)(modal_object* o, int frames, float* out_l, float* out_r,
                   double scale)
{
  if (o->weighted && o->pickup_alternating)
    KERNEL(ring)(o, frames, out_l, out_r, scale, false, true);
  else if (o->weighted)
    KERNEL(ring)(o, frames, out_l, out_r, scale, true, true);
  else if (o->pickup_alternating)
    KERNEL(ring)(o, frames, out_l, out_r, scale, false, false);
  else
    KERNEL(ring)(o, frames, out_l, out_r, scale, true, false);
}

/* ring_with() for one or two vectors of e's modes: one is held in
 * registers beside the object's chunks, where two would not be (es: e's
 * scale, n frames, l and r the outputs at scale s) */
static DSP_INLINE KERNEL_TARGET void
KERNEL(ring_with_e)(modal_object* o, modal_object* e, double es, int n,
                    float* l, float* r, double s, bool shaped, bool weighted)
{
  if (e->count > KERNEL_LANES)
    KERNEL(ring_with)(o, e, es, n, l, r, s, shaped, weighted, true);
  else
    KERNEL(ring_with)(o, e, es, n, l, r, s, shaped, weighted, false);
}

KERNEL_EXPORT void
KERNEL(modal_ring_with)(modal_object* o, modal_object* e, double es, int n,
                        float* l, float* r, double s)
{
  if (e->count > 2 * KERNEL_LANES || e->weighted || e->width != 0.0) {
    /* more modes than two vectors, or heard otherwise: a pass each */
    KERNEL(modal_ring)(o, n, l, r, s);
    KERNEL(modal_ring)(e, n, l, r, s * es);
    return;
  }
  if (o->weighted && o->pickup_alternating)
    KERNEL(ring_with_e)(o, e, es, n, l, r, s, false, true);
  else if (o->weighted)
    KERNEL(ring_with_e)(o, e, es, n, l, r, s, true, true);
  else if (o->pickup_alternating)
    KERNEL(ring_with_e)(o, e, es, n, l, r, s, false, false);
  else
    KERNEL(ring_with_e)(o, e, es, n, l, r, s, true, false);
}

/* the pickups from the velocity sums: off the lanes of sv, or sr when
 * shaped */
static DSP_INLINE KERNEL_TARGET void
KERNEL(sums_pickups)(const modal_object* o, const modal_vec* sv,
                     const modal_vec* sr, bool shaped, double* left,
                     double* right)
{
  if (shaped) {
    *left = KERNEL(lanes_sum)(sv);
    *right = KERNEL(lanes_sum)(sr);
  } else {
    KERNEL(lanes_pickups)(o, sv, left, right);
  }
}

static DSP_INLINE KERNEL_TARGET void
KERNEL(next)(const modal_object* o, const modal_coeffs* c, bool shaped,
             bool weighted, double* point_x, double* point_v, double* left_v,
             double* right_v)
{
  modal_vec sx = {0}, sv = {0}, sl = {0}, sr = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    const modal_vec x = LOAD(o->x + l), v = LOAD(o->v + l);
    const modal_vec xn = LOAD(c->a11 + l) * x + LOAD(c->a12 + l) * v;
    const modal_vec vn = LOAD(c->a21 + l) * x + LOAD(c->a22 + l) * v;
    if (weighted) {
      const modal_vec w = LOAD(o->contact_w + l);
      sx += w * xn;
      sv += w * vn;
      sl += LOAD(o->pickup_l + l) * vn;
    } else {
      sx += xn;
      sv += vn;
    }
    if (shaped)
      sr += LOAD(o->pickup_r + l) * vn;
  }
  *point_x = KERNEL(lanes_sum)(&sx);
  if (weighted) {
    *point_v = KERNEL(lanes_sum)(&sv);
    KERNEL(sums_pickups)(o, &sl, &sr, shaped, left_v, right_v);
  } else {
    KERNEL(sums_pickups)(o, &sv, &sr, shaped, point_v, right_v);
    *left_v = *point_v;
  }
}

KERNEL_EXPORT void
KERNEL(modal_next)(const modal_object* o, const modal_coeffs* c,
                   double* point_x, double* point_v, double* left_v,
                   double* right_v)
{
  if (o->weighted && o->pickup_alternating)
    KERNEL(next)(o, c, false, true, point_x, point_v, left_v, right_v);
  else if (o->weighted)
    KERNEL(next)(o, c, true, true, point_x, point_v, left_v, right_v);
  else if (o->pickup_alternating)
    KERNEL(next)(o, c, false, false, point_x, point_v, left_v, right_v);
  else
    KERNEL(next)(o, c, true, false, point_x, point_v, left_v, right_v);
}

/* For a free damped mode w0^2 y^2 + y'^2 never grows (its derivative is
 * -2 g y'^2), w0^2 = (2 pi f)^2 + 1/t_e^2 being the natural frequency, y
 * the displacement from the mode's rest; so the amplitude
 * sqrt(y^2 + (y'/w0)^2) bounds |y| and w0 times it bounds |y'|, and their
 * sums over the modes bound the interaction point.  Adds the amplitudes of
 * modes l.. (one vector) to *sx and w0 times them to *sv. */
static DSP_INLINE KERNEL_TARGET void
KERNEL(amplitudes)(const modal_object* o, int l, bool weighted, modal_vec y,
                   modal_vec v, modal_vec* sx, modal_vec* sv)
{
  const modal_vec u = v * LOAD(o->inv_w0 + l);
  modal_vec amp = y * y + u * u;
  for (int k = 0; k < KERNEL_LANES; ++k)
    amp[k] = sqrt(amp[k]);
  if (weighted) {
    /* the point moves by |phi(p)| amp, a pickup by |phi(q)| amp */
    *sx += amp * LOAD(o->reach_w + l);
    *sv += amp * LOAD(o->speed_w + l);
  } else {
    *sx += amp;
    *sv += amp * LOAD(o->w0 + l);
  }
}

/* the body of the advances; with_x, shaped, weighted and with_bounds
 * constants, so each gets its loop */
static DSP_INLINE KERNEL_TARGET advance_sums
KERNEL(advance)(modal_object* o, const modal_coeffs* c, double force,
                bool with_x, bool shaped, bool weighted, bool with_bounds)
{
  modal_vec sx = {0}, sv = {0}, sl = {0}, sr = {0}, ax = {0}, av = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    const modal_vec a11 = LOAD(c->a11 + l), a12 = LOAD(c->a12 + l);
    const modal_vec a21 = LOAD(c->a21 + l), a22 = LOAD(c->a22 + l);
    modal_vec xc, vc, w = {0};
    if (weighted) {
      w = LOAD(o->contact_w + l);
      const modal_vec wf = w * force; /* phi(p) F drives the mode */
      xc = LOAD(o->x + l) + LOAD(c->bx + l) * wf;
      vc = LOAD(o->v + l) + LOAD(c->bv + l) * wf;
    } else {
      xc = LOAD(o->x + l) + LOAD(c->bx + l) * force;
      vc = LOAD(o->v + l) + LOAD(c->bv + l) * force;
    }
    if (with_bounds)
      KERNEL(amplitudes)(o, l, weighted, xc, vc, &ax, &av);
    const modal_vec xn = a11 * xc + a12 * vc;
    const modal_vec vn = a21 * xc + a22 * vc;
    STORE(o->x + l, xn);
    STORE(o->v + l, vn);
    const modal_vec vnn = a21 * xn + a22 * vn;
    if (weighted) {
      if (with_x)
        sx += w * (a11 * xn + a12 * vn);
      sv += w * vnn;
      sl += LOAD(o->pickup_l + l) * vnn;
    } else {
      if (with_x)
        sx += a11 * xn + a12 * vn;
      sv += vnn;
    }
    if (shaped)
      sr += LOAD(o->pickup_r + l) * vnn;
  }
  advance_sums s = {0};
  if (with_x)
    s.point_x = KERNEL(lanes_sum)(&sx);
  if (weighted) {
    s.point_v = KERNEL(lanes_sum)(&sv);
    KERNEL(sums_pickups)(o, &sl, &sr, shaped, &s.left_v, &s.right_v);
  } else {
    KERNEL(sums_pickups)(o, &sv, &sr, shaped, &s.point_v, &s.right_v);
    s.left_v = s.point_v;
  }
  if (with_bounds) {
    s.reach = (1.0 + bounds_margin) * KERNEL(lanes_sum)(&ax);
    s.speed = (1.0 + bounds_margin) * KERNEL(lanes_sum)(&av);
  }
  return s;
}

/* the advance for o's pickups and shapes */
#define ADVANCE(o, c, force, with_x, with_bounds)                              \
  ((o)->weighted && (o)->pickup_alternating                                    \
       ? KERNEL(advance)(o, c, force, with_x, false, true, with_bounds)        \
   : (o)->weighted                                                             \
       ? KERNEL(advance)(o, c, force, with_x, true, true, with_bounds)         \
   : (o)->pickup_alternating                                                   \
       ? KERNEL(advance)(o, c, force, with_x, false, false, with_bounds)       \
       : KERNEL(advance)(o, c, force, with_x, true, false, with_bounds))

KERNEL_EXPORT void
KERNEL(modal_advance)(modal_object* o, const modal_coeffs* c, double force,
                      double* point_v, double* left_v, double* right_v)
{
  const advance_sums s = ADVANCE(o, c, force, false, false);
  *point_v = s.point_v;
  *left_v = s.left_v;
  *right_v = s.right_v;
}

KERNEL_EXPORT void
KERNEL(modal_advance_point)(modal_object* o, const modal_coeffs* c,
                            double force, double* point_x, double* point_v,
                            double* left_v, double* right_v)
{
  const advance_sums s = ADVANCE(o, c, force, true, false);
  *point_x = s.point_x;
  *point_v = s.point_v;
  *left_v = s.left_v;
  *right_v = s.right_v;
}

KERNEL_EXPORT void
KERNEL(modal_advance_bounds)(modal_object* o, const modal_coeffs* c,
                             double force, double* point_x, double* point_v,
                             double* left_v, double* right_v, double* reach,
                             double* speed)
{
  const advance_sums s = ADVANCE(o, c, force, true, true);
  *point_x = s.point_x;
  *point_v = s.point_v;
  *left_v = s.left_v;
  *right_v = s.right_v;
  *reach = s.reach;
  *speed = s.speed;
}
#undef ADVANCE

KERNEL_EXPORT void
KERNEL(modal_correct)(modal_object* o, const modal_coeffs* c, double force)
{
  if (o->weighted) {
    for (int l = 0; l < o->n; l += KERNEL_LANES) {
      const modal_vec wf = LOAD(o->contact_w + l) * force;
      STORE(o->x + l, LOAD(o->x + l) + LOAD(c->bx + l) * wf);
      STORE(o->v + l, LOAD(o->v + l) + LOAD(c->bv + l) * wf);
    }
    return;
  }
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    STORE(o->x + l, LOAD(o->x + l) + LOAD(c->bx + l) * force);
    STORE(o->v + l, LOAD(o->v + l) + LOAD(c->bv + l) * force);
  }
}

KERNEL_EXPORT void
KERNEL(modal_point)(const modal_object* o, double* point_x, double* point_v)
{
  modal_vec sx = {0}, sv = {0};
  if (o->weighted) {
    for (int l = 0; l < o->n; l += KERNEL_LANES) {
      const modal_vec w = LOAD(o->contact_w + l);
      sx += w * LOAD(o->x + l);
      sv += w * LOAD(o->v + l);
    }
  } else {
    for (int l = 0; l < o->n; l += KERNEL_LANES) {
      sx += LOAD(o->x + l);
      sv += LOAD(o->v + l);
    }
  }
  *point_x = KERNEL(lanes_sum)(&sx);
  *point_v = KERNEL(lanes_sum)(&sv);
}

static DSP_INLINE KERNEL_TARGET void
KERNEL(pickups)(const modal_object* o, bool shaped, bool weighted, double* left,
                double* right)
{
  modal_vec sv = {0}, sr = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    const modal_vec v = LOAD(o->v + l);
    if (weighted)
      sv += LOAD(o->pickup_l + l) * v;
    else
      sv += v;
    if (shaped)
      sr += LOAD(o->pickup_r + l) * v;
  }
  KERNEL(sums_pickups)(o, &sv, &sr, shaped, left, right);
}

KERNEL_EXPORT void
KERNEL(modal_pickups)(const modal_object* o, double* left, double* right)
{
  if (o->weighted && o->pickup_alternating)
    KERNEL(pickups)(o, false, true, left, right);
  else if (o->weighted)
    KERNEL(pickups)(o, true, true, left, right);
  else if (o->pickup_alternating)
    KERNEL(pickups)(o, false, false, left, right);
  else
    KERNEL(pickups)(o, true, false, left, right);
}

KERNEL_EXPORT void
KERNEL(modal_bounds_about)(const modal_object* o, double static_force,
                           double* reach, double* speed)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    const modal_vec y = LOAD(o->x + l) - static_force * LOAD(o->deflection + l);
    if (o->weighted)
      KERNEL(amplitudes)(o, l, true, y, LOAD(o->v + l), &sx, &sv);
    else
      KERNEL(amplitudes)(o, l, false, y, LOAD(o->v + l), &sx, &sv);
  }
  *reach = (1.0 + bounds_margin) * KERNEL(lanes_sum)(&sx);
  *speed = (1.0 + bounds_margin) * KERNEL(lanes_sum)(&sv);
}

KERNEL_EXPORT bool
KERNEL(modal_is_finite)(const modal_object* o)
{
  modal_vec s = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES)
    s += LOAD(o->x + l) * 0.0 + LOAD(o->v + l) * 0.0;
  return KERNEL(lanes_sum)(&s) ==
         0.0; /* NaN or Inf anywhere makes the sum NaN */
}

/* modal_correct() with the force of one step, then the free motion of the
 * next, in one pass (the right pickup comes free, from the lanes, while
 * the shapes alternate). */
static DSP_INLINE KERNEL_TARGET void
KERNEL(correct_predict)(modal_object* o, const modal_coeffs* c, double force,
                        bool shaped, bool weighted, double* point_x,
                        double* point_v, double* left_v, double* right_v)
{
  modal_vec sx = {0}, sv = {0}, sl = {0}, sr = {0};
  for (int l = 0; l < o->n; l += KERNEL_LANES) {
    modal_vec xc, vc, w = {0};
    if (weighted) {
      w = LOAD(o->contact_w + l);
      const modal_vec wf = w * force;
      xc = LOAD(o->x + l) + LOAD(c->bx + l) * wf;
      vc = LOAD(o->v + l) + LOAD(c->bv + l) * wf;
    } else {
      xc = LOAD(o->x + l) + LOAD(c->bx + l) * force;
      vc = LOAD(o->v + l) + LOAD(c->bv + l) * force;
    }
    const modal_vec xn = LOAD(c->a11 + l) * xc + LOAD(c->a12 + l) * vc;
    const modal_vec vn = LOAD(c->a21 + l) * xc + LOAD(c->a22 + l) * vc;
    STORE(o->x + l, xn);
    STORE(o->v + l, vn);
    if (weighted) {
      sx += w * xn;
      sv += w * vn;
      sl += LOAD(o->pickup_l + l) * vn;
    } else {
      sx += xn;
      sv += vn;
    }
    if (shaped)
      sr += LOAD(o->pickup_r + l) * vn;
  }
  *point_x = KERNEL(lanes_sum)(&sx);
  double left, right;
  if (weighted) {
    *point_v = KERNEL(lanes_sum)(&sv);
    KERNEL(sums_pickups)(o, &sl, &sr, shaped, &left, &right);
  } else {
    KERNEL(sums_pickups)(o, &sv, &sr, shaped, point_v, &right);
    left = *point_v;
  }
  if (right_v) {
    *left_v = left;
    *right_v = right;
  }
}

KERNEL_EXPORT void
KERNEL(modal_correct_predict)(modal_object* o, const modal_coeffs* c,
                              double force, double* point_x, double* point_v,
                              double* left_v, double* right_v)
{
  /* without right_v the lanes' right pickup is computed and dropped */
  const bool weighted = o->weighted;
  const bool shaped = !(o->pickup_alternating || !right_v);
  if (weighted && shaped) {
    KERNEL(correct_predict)
    (o, c, force, true, true, point_x, point_v, left_v, right_v);
  } else if (weighted) {
    KERNEL(correct_predict)
    (o, c, force, false, true, point_x, point_v, left_v, right_v);
  } else if (shaped) {
    KERNEL(correct_predict)
    (o, c, force, true, false, point_x, point_v, left_v, right_v);
  } else {
    KERNEL(correct_predict)
    (o, c, force, false, false, point_x, point_v, left_v, right_v);
  }
}

#undef modal_vec
#undef LOAD
#undef STORE
