#!/usr/bin/env bash
# Prints the package's AppStream metainfo: a console application that provides the USB ids of
# the radios the udev rule RULES names (one modalias per vendor:product), so the rule's
# hardware and the metadata cannot drift apart.
# Usage: Packaging/deb/metainfo.sh RULES VERSION
set -euo pipefail
rules="$1" version="$2"
cat <<XML
<?xml version="1.0" encoding="UTF-8"?>
<component type="console-application">
  <id>org.meshport.meshport</id>
  <metadata_license>FSFAP</metadata_license>
  <project_license>LicenseRef-none-stated</project_license>
  <name>Meshport</name>
  <summary>Toolkit, client and server for MeshCore companion radios</summary>
  <description>
    <p>Meshport talks to MeshCore LoRa companion radios over USB serial, raw USB, TCP and
    Bluetooth LE: messages, contacts, channels, remote nodes, a local history, a web UI, and
    uplinks of heard packets to MQTT.</p>
  </description>
  <provides>
    <binary>meshport</binary>
XML
sed -n 's/.*ATTR{idVendor}=="\([0-9a-fA-F]\{4\}\)".*ATTR{idProduct}=="\([0-9a-fA-F]\{4\}\)".*/\1 \2/p' "$rules" | sort -u \
    | while read -r vendor product; do
        printf '    <modalias>usb:v%sp%sd*</modalias>\n' "${vendor^^}" "${product^^}"
    done
cat <<XML
  </provides>
  <releases>
    <release version="$version"/>
  </releases>
</component>
XML
