/* SPDX-License-Identifier: ISC */
/*
 * The host executable defines the malloc family (exported dynamically), so
 * a plugin's calls resolve here; each forwards to glibc's allocator and is
 * counted while run() executes.  Sanitizer builds own the allocator, so
 * there this file only reports that it cannot count.
 */
#include "alloc_count.h"

#include <errno.h>
#include <stddef.h>

static volatile int counting;
static volatile long long allocations;

void
alloc_count_begin(void)
{
  counting = 1;
}

void
alloc_count_end(void)
{
  counting = 0;
}

#ifdef CONTACT_COUNT_ALLOCATIONS

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t n, size_t size);
extern void* __libc_realloc(void* p, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);
extern void* __libc_valloc(size_t size);
extern void* __libc_pvalloc(size_t size);

static inline void
note(void)
{
  if (counting)
    ++allocations;
}

void*
malloc(size_t size)
{
  note();
  return __libc_malloc(size);
}

void*
calloc(size_t n, size_t size)
{
  note();
  return __libc_calloc(n, size);
}

void*
realloc(void* p, size_t size)
{
  note();
  return __libc_realloc(p, size);
}

void*
memalign(size_t alignment, size_t size)
{
  note();
  return __libc_memalign(alignment, size);
}

void*
aligned_alloc(size_t alignment, size_t size)
{
  note();
  return __libc_memalign(alignment, size);
}

int
posix_memalign(void** out, size_t alignment, size_t size)
{
  note();
  if (alignment % sizeof(void*) || (alignment & (alignment - 1)))
    return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

void*
valloc(size_t size)
{
  note();
  return __libc_valloc(size);
}

void*
pvalloc(size_t size)
{
  note();
  return __libc_pvalloc(size);
}

long long
alloc_count_total(void)
{
  return allocations;
}

#else

long long
alloc_count_total(void)
{
  return -1;
}

#endif
