/* Gathering the machine facts the verdict decides on: CPUID, DMI, VMBus, kernel release. */
#pragma once
#include <stdbool.h>

#include "verdict.h"

struct udev;

/* With full false, reads only what the verdict needs (DMI only when CPUID leaves it open);
 * with full true, also what the report shows (flavour, every DMI field). */
void facts_gather(struct machine_facts *f, struct udev *udev, bool full);
