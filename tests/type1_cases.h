/* SPDX-License-Identifier: ISC */
/* Bar 1 of the impact issue: Type I strikes (a 10 g hammer on a rigid wall
 * at 44.1 kHz) and the tolerances on v_out ([papetti] eq 6) and the contact
 * time (eq 9), shared by the DSP and the plugin tests. */
#ifndef CONTACT_TYPE1_CASES_H
#define CONTACT_TYPE1_CASES_H

typedef struct type1_case {
  double stiffness, alpha, mu, v_in;
  double v_out_tolerance, contact_time_tolerance;
} type1_case;

static const type1_case type1_cases[] = {
    {1e7, 1.5, 0.5, 0.5, 1e-4, 1e-3},  {1e9, 1.5, 0.5, 1, 5e-4, 1e-2},
    {1e9, 1.5, 2, 1, 1e-3, 1e-2},      {1e9, 1.5, 0.5, 3, 1e-3, 1e-2},
    {1.5e11, 1.5, 0.5, 1, 1e-3, 2e-2}, {1.5e11, 2.8, 0.6, 1, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 2, 1e-3, 1e-2}, {1.5e11, 2.8, 0.6, 3, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 4, 1e-3, 1e-2}, {1e7, 1.3, 0.01, 0.5, 1e-4, 1e-2},
};

enum { N_TYPE1_CASES = sizeof(type1_cases) / sizeof(type1_cases[0]) };

#endif
