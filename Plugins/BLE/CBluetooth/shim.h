// BlueZ's headers (libbluetooth-dev) for the HCI user channel: AF_BLUETOOTH, BTPROTO_HCI,
// HCI_CHANNEL_USER and struct sockaddr_hci. Only constants and types are used, nothing is linked.
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
