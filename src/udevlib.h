/* libudev, loaded when first needed (udevlib.c). */
#pragma once

/* Why the last udev_new() that failed to load libudev failed, as a message naming the library,
 * the function it lacks if any, and dlerror()'s text: "cannot load 'libudev.so.1': ..." or
 * "cannot find 'NAME' in 'libudev.so.1': ...". NULL when libudev was loaded, or not tried. */
const char *udevlib_error(void);
