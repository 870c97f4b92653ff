/* SPDX-License-Identifier: ISC */
/*
 * Bar 2, Type II ([ch5] 5.2.2, fig 5.5): the hammer strikes a free modal
 * object of 3 modes.  The contact lasts longer than on a rigid wall (Type
 * I), and shortens monotonically toward the Type I value as the object's
 * mass grows over 5 decades.
 */
#include "check.h"
#include "closed_form.h"
#include "strike.h"

#include <stdio.h>

int
main(void)
{
  static const double freq[3] = {420.0, 1130.0, 2250.0};
  static const double decay[3] = {0.8, 0.4, 0.2};
  /* [ch5] fig 5.1's hammer: m = 10 g, k = 1.5e11, mu = 0.6, alpha = 2.8 */
  const impact_law law = {1.5e11, 2.8, 0.6};
  const double m = 0.01, v_in = 1.0;
  const double rates[2] = {44100.0, 96000.0};
  for (int r = 0; r < 2; ++r) {
    const double type1 =
        hc_contact_time(m, law.stiffness, law.alpha, law.mu, v_in);
    printf("%g Hz: Type I contact time %.6f ms\n", rates[r], 1e3 * type1);
    double previous = INFINITY;
    for (double mass = 0.01; mass <= 1000.0 * 1.0001; mass *= sqrt(10.0)) {
      const strike_setup s = {rates[r], law, m,    0.0,  v_in,
                              mass,     3,   freq, decay};
      modal_object* o;
      const impact* im = strike(&s, 0.05, true, &o);
      (void)o;
      /* the first contact is over when the first one is reported */
      const double t = im->last.contact_time;
      printf("  object %9.4f kg: contact time %.6f ms (%+.3f %% of Type I), "
             "%u contact(s)\n",
             mass, 1e3 * t, 100 * (t / type1 - 1), (unsigned)im->last.serial);
      CHECK(im->last.serial >= 1, "no contact");
      CHECK(t > type1, "object %g kg: %g s not longer than Type I %g s", mass,
            t, type1);
      CHECK(t < previous, "object %g kg: %g s not shorter than %g s", mass, t,
            previous);
      previous = t;
    }
    /* 1000 kg: the object's compliance adds ~ +0.67 % x (1 kg / 1000 kg)
     * = 7e-6 (the excess falls 10x a decade of mass, as printed) and the
     * DSP's Type I error for this hammer is +1.9e-5 (test_type1): achieved
     * +2.7e-5, the bar 3x */
    check_rel("heaviest object tends to Type I", previous, type1, 8e-5);
  }
  return check_done("test_type2");
}
