/* --undo: puts back what this program changed this boot, from its records (record.h). */
#pragma once
#include "run.h"

enum exit_status undo(const struct run_options *o);
