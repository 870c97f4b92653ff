/* SPDX-License-Identifier: ISC */
/* Small helpers shared by the DSP core: constants, floating-point mode. */
#ifndef CONTACT_DSP_UTIL_H
#define CONTACT_DSP_UTIL_H

#define DSP_PI 3.14159265358979323846

/* Code whose speed depends on the instruction set is compiled for several
 * and chosen at load time (ifunc), so that one binary runs on every x86-64
 * and fast on recent ones: the per-mode loops by modal.c (DSP_DISPATCH),
 * the contact solvers, scalar code that gains from FMA, by GCC's
 * target_clones (DSP_VECTOR_CLONES). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&         \
    defined(__linux__)
#define DSP_DISPATCH 1
#define DSP_VECTOR_CLONES                                                      \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define DSP_DISPATCH 0
#define DSP_VECTOR_CLONES
#endif

/* Inner helpers of a DSP_VECTOR_CLONES function are forced inline so that
 * they are compiled for each of its targets. */
#if defined(__GNUC__)
#define DSP_INLINE inline __attribute__((always_inline))
#else
#define DSP_INLINE inline
#endif

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

/* Flush denormals to zero (FTZ and DAZ) for the duration of a process call.
 * Returns the previous mode to hand to dsp_restore_fp_mode(). */
static inline unsigned
dsp_flush_denormals(void)
{
#if defined(__SSE__) || defined(__x86_64__)
  const unsigned old = _mm_getcsr();
  _mm_setcsr(old | 0x8040u); /* FTZ (bit 15) | DAZ (bit 6) */
  return old;
#elif defined(__aarch64__)
  unsigned long fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  __asm__ volatile("msr fpcr, %0" ::"r"(fpcr | (1ul << 24)));
  return (unsigned)fpcr;
#else
  return 0;
#endif
}

static inline void
dsp_restore_fp_mode(unsigned old)
{
#if defined(__SSE__) || defined(__x86_64__)
  _mm_setcsr(old);
#elif defined(__aarch64__)
  __asm__ volatile("msr fpcr, %0" ::"r"((unsigned long)old));
#else
  (void)old;
#endif
}

#endif
