/* Gathering the machine facts the verdict decides on: CPUID, DMI, VMBus, kernel release. */
#pragma once
#include <stdbool.h>

#include "verdict.h"

struct udev;

/* CPUID alone: where verdict_needs_dmi() says no, the verdict is already final. */
void facts_gather_cpuid(struct machine_facts *f);

/* The rest: DMI and VMBus, and with full also what only the report shows (kernel release). */
void facts_gather_rest(struct machine_facts *f, struct udev *udev, bool full);
