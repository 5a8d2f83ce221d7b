/* The floor of the helper's cost: a program built with the helper's flags and libraries that only
 * makes a udev context and drops it. What the helper costs above this is its own work and the
 * symbols it imports, each bound by the loader at start (BIND_NOW). bench/cost measures both. */
#include <libudev.h>

int main(void) {
        udev_unref(udev_new());
        return 0;
}
