// Eclipse Paho MQTT C, asynchronous client with TLS (libpaho-mqtt-dev, libpaho-mqtt3as).
// Paho's option structs start from brace initializer macros, which Swift cannot import:
// these functions hand back a struct set up by the macro itself.
#include <MQTTAsync.h>
#include <string.h>

static inline MQTTAsync_init_options cpaho_init_options(void) {
    MQTTAsync_init_options options = MQTTAsync_init_options_initializer;
    return options;
}

static inline MQTTAsync_createOptions cpaho_create_options(void) {
    MQTTAsync_createOptions options = MQTTAsync_createOptions_initializer;
    return options;
}

static inline MQTTAsync_connectOptions cpaho_connect_options(void) {
    MQTTAsync_connectOptions options = MQTTAsync_connectOptions_initializer;
    return options;
}

static inline MQTTAsync_connectOptions cpaho_connect_options_ws(void) {
    MQTTAsync_connectOptions options = MQTTAsync_connectOptions_initializer_ws;
    return options;
}

static inline MQTTAsync_SSLOptions cpaho_ssl_options(void) {
    MQTTAsync_SSLOptions options = MQTTAsync_SSLOptions_initializer;
    return options;
}

static inline MQTTAsync_willOptions cpaho_will_options(void) {
    MQTTAsync_willOptions options = MQTTAsync_willOptions_initializer;
    return options;
}

static inline MQTTAsync_responseOptions cpaho_response_options(void) {
    MQTTAsync_responseOptions options = MQTTAsync_responseOptions_initializer;
    return options;
}

static inline MQTTAsync_message cpaho_message(void) {
    MQTTAsync_message message = MQTTAsync_message_initializer;
    return message;
}

static inline MQTTAsync_disconnectOptions cpaho_disconnect_options(void) {
    MQTTAsync_disconnectOptions options = MQTTAsync_disconnectOptions_initializer;
    return options;
}

static inline MQTTAsync_connectOptions cpaho_connect_options5(void) {
    MQTTAsync_connectOptions options = MQTTAsync_connectOptions_initializer5;
    return options;
}

static inline MQTTAsync_connectOptions cpaho_connect_options5_ws(void) {
    MQTTAsync_connectOptions options = MQTTAsync_connectOptions_initializer5_ws;
    return options;
}

static inline MQTTProperties cpaho_properties(void) {
    MQTTProperties properties = MQTTProperties_initializer;
    return properties;
}

// MQTTProperty's value is a union of anonymous structs, which Swift reads awkwardly.
static inline int cpaho_add_session_expiry(MQTTProperties *properties, unsigned int seconds) {
    MQTTProperty property;
    memset(&property, 0, sizeof property);
    property.identifier = MQTTPROPERTY_CODE_SESSION_EXPIRY_INTERVAL;
    property.value.integer4 = seconds;
    return MQTTProperties_add(properties, &property);
}

static inline int cpaho_add_subscription_identifier(MQTTProperties *properties, int identifier) {
    MQTTProperty property;
    memset(&property, 0, sizeof property);
    property.identifier = MQTTPROPERTY_CODE_SUBSCRIPTION_IDENTIFIER;
    property.value.integer4 = (unsigned int)identifier;
    return MQTTProperties_add(properties, &property);
}
