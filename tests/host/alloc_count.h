/* SPDX-License-Identifier: ISC */
/* Counting the allocations a plugin makes inside run(). */
#ifndef CONTACT_ALLOC_COUNT_H
#define CONTACT_ALLOC_COUNT_H

void alloc_count_begin(void);
void alloc_count_end(void);
/* allocations between begin/end so far, or -1 if this build cannot count */
long long alloc_count_total(void);

#endif
