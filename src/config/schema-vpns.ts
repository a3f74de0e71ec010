// VPN configurations on a virtual device (2.7 fields, 4.7 body and its rules).

import { z } from "zod";
import { cidr, ipAddress, text, uuid, vpnAsn } from "./schema-common.js";

/** 4 to 25 characters, letters and digits only, not starting with a digit (section 8). */
export const VPN_PASSWORD = /^[A-Za-z][A-Za-z0-9]{3,24}$/;

const password = () =>
  z.string().refine((s) => VPN_PASSWORD.test(s), { error: "password must be 4 to 25 letters and digits and must not start with a digit" }).describe("BGP password (sensitive)");

const tunnel = {
  configName: text(3, 50, "configName"),
  peerIp: ipAddress().describe("address of the remote site; unique per device"),
  peerSharedKey: z.string().min(1).describe("pre-shared key (sensitive); use ${secret.NAME}"),
  remoteAsn: vpnAsn().describe("the remote site's ASN; differs from localAsn"),
  remoteIpAddress: ipAddress().describe("remote address for BGP peering"),
  password: password().optional(),
  localAsn: vpnAsn(),
  tunnelIp: cidr().describe("local tunnel address in CIDR notation"),
};

export const vpnSpec = z.strictObject({
  virtualDeviceUuid: uuid().describe("the device's uuid, normally ${devices.NAME.uuid}"),
  siteName: z.string().min(1),
  ...tunnel,
  useNetworkServiceConnection: z.boolean().optional().describe("default false; true only if the device has a network service connection"),
  secondary: z.strictObject(tunnel).optional().describe("the tunnel of the redundant (secondary) device"),
});
