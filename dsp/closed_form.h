/* SPDX-License-Identifier: ISC */
/*
 * Closed forms of the Hunt-Crossley impact of a point mass m on a rigid
 * wall, f = k x^a (1 + mu v) ([papetti] II-A, [ch5] 5.2.1).  v is the
 * compression velocity, positive while the mass moves into the wall; an
 * impact starts at x = 0, v = v_in > 0 and ends at x = 0, v = v_out < 0.
 *
 * These are the references of the accuracy tests, the energy bookkeeping
 * and the predictions shown to the player.  They are not used per sample.
 */
#ifndef CONTACT_CLOSED_FORM_H
#define CONTACT_CLOSED_FORM_H

/* Rebound velocity: the root v_out < 0 of [papetti] eq 6,
 * mu v_out - log(1 + mu v_out) = mu v_in - log(1 + mu v_in). */
double hc_rebound_velocity(double mu, double v_in);

/* Papetti's non-local approximation of v_out, eqs 7-8 (n = 4). */
double hc_rebound_velocity_approx(double mu, double v_in);

/* Compression on the trajectory as a function of velocity, eq 3. */
double hc_compression(double mass, double stiffness, double alpha, double mu,
                      double v_in, double v);

/* Maximum compression, eq 4 (eq 3 at v = 0). */
double hc_max_compression(double mass, double stiffness, double alpha,
                          double mu, double v_in);

/* Total energy (Hamiltonian) on the trajectory as a function of velocity,
 * eq 20; equals m v_in^2 / 2 at v = v_in and m v_out^2 / 2 at v = v_out. */
double hc_energy(double mass, double mu, double v_in, double v);

/* Contact time, [papetti] eq 9 = [ch5] eq 5.17, integrated with the
 * endpoint singularities removed by a change of variable. */
double hc_contact_time(double mass, double stiffness, double alpha, double mu,
                       double v_in);

/* Contact time of the undamped (mu = 0) contact in closed form; it also
 * serves as the time scale that sizes the contact integrator's sub-steps. */
double hc_contact_time_undamped(double mass, double stiffness, double alpha,
                                double v_in);

#endif
