#include "meshport_driver.h"
#include <string.h>

static void copy(char *to, size_t size, const char *from) {
    if (from == NULL) from = "";
    strncpy(to, from, size - 1);
    to[size - 1] = '\0';
}

void meshport_error_set(meshport_error *error, meshport_error_kind kind, const char *message) {
    if (error == NULL) return;
    error->kind = kind;
    copy(error->message, sizeof(error->message), message);
    error->fix[0] = '\0';
}

void meshport_error_set_fix(meshport_error *error, const char *fix) {
    if (error == NULL) return;
    copy(error->fix, sizeof(error->fix), fix);
}
