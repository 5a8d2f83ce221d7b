/* The floor of the helper's cost while it linked libudev: a program built with the helper's flags
 * and linked with libudev that only makes a udev context and drops it. The helper now loads
 * libudev only when a run needs it (src/udevlib.c): bench/cost.sh shows both. */
#include <libudev.h>

int main(void) {
        udev_unref(udev_new());
        return 0;
}
