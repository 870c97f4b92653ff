/* SPDX-License-Identifier: ISC */
#include "rolling.h"

#include "dsp_util.h"

#include <math.h>
#include <string.h>

/* time for the speed to follow a change of the controls */
static const double speed_glide_s = 0.02;

void
rolling_init(rolling* r, double sample_rate, uint64_t seed)
{
  memset(r, 0, sizeof(*r));
  r->sample_rate = sample_rate;
  r->seed = seed;
  surface_init(&r->ground, seed);
  r->law = (impact_law){.stiffness = 1e9, .alpha = 1.5, .mu = 0.3};
  r->series = impact_series_of(r->law.alpha);
  r->ball_mass = 0.005;
  r->weight = 0.005 * 9.81;
}

static double
static_compression(const rolling* r)
{
  return impact_law_static_compression(&r->law, r->weight);
}

/* the contact patch under the static load, of diameter 2 sqrt(R x) */
static void
update_patch(rolling* r)
{
  surface_set_patch(&r->ground,
                    2.0 * sqrt(r->ground.radius * static_compression(r)));
}

void
rolling_set_law(rolling* r, impact_law law)
{
  const bool felt_changed =
      law.kind != r->law.kind || !felt_law_same(&law.felt, &r->law.felt);
  const bool spring = law.stiffness != r->law.stiffness ||
                      law.alpha != r->law.alpha || felt_changed;
  if (felt_changed) {
    r->felt.step_h = 0.0; /* worked out again at the next step */
    r->felt.e_q = NAN;    /* and its energy */
    if ((law.kind == IMPACT_FELT || r->law.kind == IMPACT_FELT) &&
        r->force > 0.0) {
      /* the ball rides to where the new law, relaxed, bears the force it
       * bore, its felt at rest there: no blow (as impact's hammer rides,
       * impact_set_law(); a felt's range reaches far softer and stiffer
       * than Hunt-Crossley's) */
      const double x = impact_law_static_compression(&law, r->force);
      r->ball_x += x - r->x0;
      r->x0 = x;
      impact_felt_rest(&r->felt, &law, x);
    }
  }
  r->law = law;
  if (law.alpha != r->series.a)
    r->series = impact_series_of(law.alpha);
  if (spring) {
    r->spring_changed = true;
    update_patch(r);
  }
}

void
rolling_set_ball(rolling* r, double mass, double radius, double weight)
{
  if (mass != r->ball_mass || weight != r->weight)
    r->spring_changed = true;
  r->ball_mass = mass;
  r->weight = weight > 0.0 ? weight : 0.0;
  if (radius != r->ground.radius)
    r->carried = false; /* the ball's turn */
  surface_set(&r->ground, r->ground.beta, r->ground.depth, radius);
  update_patch(r);
}

void
rolling_set_surface(rolling* r, double beta, double depth)
{
  surface_set(&r->ground, beta, depth, r->ground.radius);
}

void
rolling_set_asymmetry(rolling* r, double asymmetry)
{
  r->asymmetry = asymmetry;
}

void
rolling_set_speed(rolling* r, double speed, double seconds)
{
  speed = speed > 0.0 ? speed : 0.0;
  if (speed == r->target && r->accel > 0.0)
    return; /* on its way there */
  r->target = speed;
  if (!(seconds > 0.0))
    seconds = speed_glide_s;
  r->accel = fabs(r->target - r->speed) / seconds;
}

/* what the ball's bottom meets at distance X: the ride height of the
 * surface and the ball's out-of-roundness */
static double
offset_at(rolling* r, double distance)
{
  const double radius = r->ground.radius;
  const double e = ROLLING_MAX_ECCENTRICITY * r->asymmetry;
  return surface_ride(&r->ground, distance) +
         e * radius * cos(distance / radius);
}

/* whether the ball has modes of its own */
static bool
has_exciter(const rolling* r)
{
  return modal_has_modes(r->exciter);
}

void
rolling_set_exciter(rolling* r, modal_object* exciter, double level)
{
  r->exciter = exciter;
  r->exciter_level = level;
  r->substeps = 0; /* its coefficients at the sub-step */
  r->carried = false;
}

double
rolling_exciter_unrest(const rolling* r)
{
  if (!has_exciter(r))
    return 0.0;
  double reach, speed;
  modal_bounds_about(r->exciter, -r->weight, &reach, &speed);
  return r->exciter_level * r->exciter->pickup_bound * speed;
}

void
rolling_place(rolling* r, modal_object* o)
{
  /* the object has long borne the ball's weight, and the ball it back */
  modal_press(o, r->weight);
  if (has_exciter(r))
    modal_press(r->exciter, -r->weight);
  double px, pv, ex, ev;
  modal_point(o, &px, &pv);
  modal_point_if_any(r->exciter, &ex, &ev);
  r->offset = offset_at(r, r->distance);
  r->point_shift = 0.0;
  r->point_known = false;
  r->x0 = static_compression(r);
  r->ball_x = r->x0 + px - r->offset - ex;
  r->ball_v = pv - ev;
  impact_felt_rest(&r->felt, &r->law, r->x0);
  r->force = r->force_prev = r->force_prev2 = r->weight;
  r->carried = false;
}

void
rolling_reset(rolling* r, modal_object* o)
{
  /* the surface from its start again, with its settings */
  const double beta = r->ground.beta, depth = r->ground.depth,
               radius = r->ground.radius;
  surface_init(&r->ground, r->seed);
  surface_set(&r->ground, beta, depth, radius);
  update_patch(r);
  r->distance = 0.0;
  r->speed = r->target = r->accel = 0.0;
  r->force = r->force_prev = r->force_prev2 = r->offset = 0.0;
  r->point_shift = 0.0;
  r->point_known = false;
  r->ball_x = r->ball_v = r->x0 = 0.0;
  r->felt.q = r->felt.y = 0.0;
  r->carried = false;
  r->mean_force = r->contact_fraction = 0.0;
  modal_reset(o);
  if (r->exciter)
    modal_reset(r->exciter);
}

double
rolling_unrest(const rolling* r, const modal_object* o)
{
  double ex, ev, reach, speed = 0.0;
  modal_point_if_any(r->exciter, &ex, &ev);
  if (has_exciter(r))
    modal_bounds_about(r->exciter, -r->weight, &reach, &speed);
  /* the ball's own vibration meets the object's at the contact */
  return impact_body_unrest(&r->law, r->weight, r->ball_mass,
                            r->ball_x + r->offset + ex, r->ball_v + ev, o) +
         speed;
}

void
rolling_settle(rolling* r, modal_object* o)
{
  modal_reset(o);
  if (r->exciter)
    modal_reset(r->exciter);
  rolling_place(r, o);
  r->mean_force = r->weight; /* what the meters see of a ball at rest */
  r->contact_fraction = r->weight > 0.0 ? 1.0 : 0.0;
}

bool
rolling_is_finite(const rolling* r)
{
  return isfinite(r->ball_x) && isfinite(r->ball_v) && isfinite(r->force) &&
         isfinite(r->force_prev) && isfinite(r->force_prev2) &&
         isfinite(r->offset) && isfinite(r->distance) && isfinite(r->speed) &&
         (!r->exciter || modal_is_finite(r->exciter));
}

void
rolling_object_changed(rolling* r)
{
  r->substeps = 0;
  r->carried = false;
}

/* Sub-steps per sample: the contact spring, linearised at the static
 * compression, with the ball and the interaction point's mass on it,
 * rings over at least steps_per_period steps.  The object's coefficients are
 * worked out again only when that count or the object changes (a pressed key
 * moves the weight at every pressure message). */
/* Steps per period of the contact spring: the implicit, passive step stays
 * stable at any count, and 16 keeps its period within 0.5 % and each
 * micro-impact's shape. */
static const double steps_per_period = 16.0;

static void
choose_substeps(rolling* r, const modal_object* o)
{
  const double x = static_compression(r);
  /* the ball's side: its mass and its own modes' in series at the point */
  const double ball =
      has_exciter(r)
          ? 1.0 / (1.0 / r->ball_mass + 1.0 / modal_point_mass(r->exciter))
          : r->ball_mass;
  const double m_eff = 1.0 / (1.0 / ball + 1.0 / modal_point_mass(o));
  int m = 1;
  if (x > 0.0) {
    /* a felt's unrelaxed slope, the stiffer */
    const double k_lin =
        r->law.kind == IMPACT_FELT
            ? felt_slope(&r->law.felt, x)
            : r->law.alpha * r->law.stiffness * pow(x, r->law.alpha - 1.0);
    const double freq = sqrt(k_lin / m_eff) / (2.0 * DSP_PI);
    while (m < ROLLING_MAX_SUBSTEPS &&
           m * r->sample_rate < steps_per_period * freq)
      m *= 2;
  }
  if (m != r->substeps) {
    modal_coeffs_compute(o, 1.0 / (r->sample_rate * m), &r->sub);
    if (has_exciter(r))
      modal_coeffs_compute(r->exciter, 1.0 / (r->sample_rate * m),
                           &r->exciter_sub);
    r->carried = false;
  }
  r->substeps = m;
  r->spring_changed = false;
}

DSP_VECTOR_CLONES void
rolling_process(rolling* r, modal_object* o, int frames, float* out_l,
                float* out_r, double scale)
{
  const bool reshaped = r->shapes_epoch != o->shapes_epoch;
  const bool retuned = r->tune_epoch != o->tune_epoch;
  if (reshaped) {
    /* touched or heard elsewhere (modal_set_shapes()): the point's mass
     * may change the sub-steps, and what was carried of it is stale */
    if (r->substeps > 0)
      modal_coeffs_weigh(o, &r->sub);
    r->spring_changed = true;
    r->carried = false;
  }
  if ((reshaped || retuned) && r->point_known) {
    /* The point under the ball moved by d without the ball's doing (the
     * contact went elsewhere on the object, or the object was retuned,
     * its deflection staying): the offset takes d, so that the move
     * changes neither the compression nor any energy (the ball rides the
     * object to where the point now is, nothing lifted against its
     * weight).  Felt as a step of the compression, or carried by the
     * ball, such a move does work that depends on the modes' own motion:
     * on a light object under a heavy ball, a pitch wheel or a path
     * pumped them without bound. */
    double px, pv;
    modal_point(o, &px, &pv);
    r->point_shift += px - r->point_x;
    r->offset += px - r->point_x;
    r->carried = false;
  }
  r->shapes_epoch = o->shapes_epoch;
  r->tune_epoch = o->tune_epoch;
  if (r->substeps == 0 || r->spring_changed)
    choose_substeps(r, o);
  const int m = r->substeps;
  const double h = 1.0 / (r->sample_rate * m);
  const double w = r->weight;
  /* the ball moves h^2 / (2 m) and h / m per unit force; with the modes'
   * response the compression responds to F by kx ([ch8] eq 8.32) */
  const double hx = h * h / (2.0 * r->ball_mass);
  const double hv = h / r->ball_mass;
  /* the ball's own modes take -F where it touches, a step behind as in
   * impact (modal_correct_predict()), made whole at every sample's end to
   * be heard */
  const bool exciting = has_exciter(r);
  modal_object* eo = r->exciter;
  const modal_coeffs* ce = exciting ? &r->exciter_sub : NULL;
  const double e_bx = exciting ? ce->sum_bx : 0.0;
  const double kx = -(hx + r->sub.sum_bx + e_bx);
  double ex, ev;
  modal_point_if_any(r->exciter, &ex, &ev);
  const double dv_max = r->accel * h;
  const bool felt = r->law.kind == IMPACT_FELT;
  if (felt)
    felt_contact_step(&r->felt, &r->law.felt, h);

  /* the modes take each step's force in the pass that moves them freely
   * over the next (modal_advance_point), their point's next free motion
   * known before it */
  const double radius = r->ground.radius;
  if (!r->carried) {
    double pv;
    modal_point(o, &r->point_x, &pv);
    modal_next(o, &r->sub, &r->next_x, &r->next_v, &r->next_l, &r->next_r);
    r->pending = 0.0;
    r->x0 = r->ball_x + ex - r->point_x + r->offset;
    r->turn_c = cos(r->distance / radius);
    r->turn_s = sin(r->distance / radius);
    r->carried = true;
  }
  double px = r->point_x, next_x = r->next_x, next_v = r->next_v,
         next_l = r->next_l, next_r = r->next_r, pending = r->pending,
         x0 = r->x0;
  double applied = pending; /* of `pending`, already in the modes */
  double force_sum = 0.0;
  long touching = 0;
  /* the ball's turn, as a phasor rotated step by step */
  double turn_c = r->turn_c, turn_s = r->turn_s;
  double turn_travel = 0.0, cq = 1.0, sq = 0.0; /* the turn of one step */
  const double e = ROLLING_MAX_ECCENTRICITY * r->asymmetry * radius;
  for (int t = 0; t < frames; ++t) {
    double left = 0.0, right = 0.0, e_force = 0.0;
    for (int s = 0; s < m; ++s) {
      /* the rolling speed, moving to its target at bounded acceleration */
      const double dv = r->target - r->speed;
      r->speed =
          fabs(dv) <= dv_max ? r->target : r->speed + copysign(dv_max, dv);
      const double travel = r->speed * h;
      r->distance += travel;
      if (travel != turn_travel) { /* at a steady speed, once */
        turn_travel = travel;
        const double q = travel / radius, q2 = q * q;
        cq = 1.0 - q2 * (0.5 - q2 * (1.0 / 24.0 - q2 / 720.0));
        sq = q * (1.0 - q2 * (1.0 / 6.0 - q2 / 120.0));
      }
      const double c_new = turn_c * cq - turn_s * sq;
      turn_s = turn_s * cq + turn_c * sq;
      turn_c = c_new;
      const double offset =
          surface_ride(&r->ground, r->distance) + e * turn_c + r->point_shift;

      /* everything but this step's contact force */
      const double ball_dx = h * r->ball_v + hx * w;
      const double ball_v = r->ball_v + hv * w;
      const double px_free = next_x + r->sub.sum_next_bx * pending;
      const double pl_free = next_l + r->sub.sum_left_next_bv * pending;
      const double pr_free = next_r + r->sub.sum_right_next_bv * pending;
      modal_advance_point(o, &r->sub, pending - applied, &next_x, &next_v,
                          &next_l, &next_r);
      applied = 0.0;
      double ex_free = ex, ev_free; /* (its velocity: unused) */
      if (exciting)
        modal_correct_predict(eo, ce, e_force, &ex_free, &ev_free, NULL, NULL);
      const double dx_free =
          ball_dx + (ex_free - ex) - (px_free - px) + (offset - r->offset);

      const double guess = 3.0 * (r->force - r->force_prev) + r->force_prev2;
      const impact_solution sol =
          felt ? impact_felt_solve(&r->felt, &r->law, h, x0, dx_free, kx, guess)
               : impact_solve_series(&r->law, &r->series, x0, dx_free, kx, h,
                                     guess);
      const double f = sol.force;
      newton_stats_count(&r->stats, sol.iterations, sol.converged);
      touching += f != 0.0;
      pending = f;
      px = px_free + r->sub.sum_bx * f;
      left = pl_free + r->sub.sum_left_bv * f;
      right = pr_free + r->sub.sum_right_bv * f;
      r->ball_v = ball_v - hv * f;
      r->ball_x += ball_dx - hx * f;
      if (exciting) {
        e_force = -f;
        ex = ex_free - e_bx * f;
      }
      r->offset = offset;
      r->force_prev2 = r->force_prev;
      r->force_prev = r->force;
      r->force = f;
      force_sum += f;
      x0 += dx_free + kx * f;
    }
    if (exciting) { /* whole again, and heard */
      modal_correct(eo, ce, e_force);
      double el, er;
      modal_pickups(eo, &el, &er);
      left += r->exciter_level * el;
      right += r->exciter_level * er;
    }
    out_l[t] += (float)(scale * left);
    out_r[t] += (float)(scale * right);
  }
  modal_correct(o, &r->sub, pending - applied);
  r->point_x = px;
  r->point_known = true;
  r->next_x = next_x;
  r->next_v = next_v;
  r->next_l = next_l;
  r->next_r = next_r;
  r->pending = pending;
  r->x0 = x0;
  r->turn_c = turn_c;
  r->turn_s = turn_s;
  r->contact_steps += (uint64_t)frames * (uint64_t)m;
  if (frames > 0) {
    r->mean_force = force_sum / ((double)frames * m);
    r->contact_fraction = (double)touching / ((double)frames * m);
  }
}
