#include "meshport_driver.h"
#include <string.h>

void meshport_error_set(meshport_error *error, meshport_error_kind kind, const char *message) {
    if (error == NULL) return;
    error->kind = kind;
    if (message == NULL) message = "";
    strncpy(error->message, message, sizeof(error->message) - 1);
    error->message[sizeof(error->message) - 1] = '\0';
}
