// Virtual devices (4.10 create body, 2.10 fields). `secondary` declares the redundant device of a pair
// created in the same request.

import { z } from "zod";
import { digits, email, ipAddress, lazily, metroCode, text, uuid } from "../../config/index.js";
import { enumeration } from "../reading.js";
import { hostNamePrefix, NODE_VENDOR_CONFIG_FIELDS, VENDOR_CONFIG_FIELDS, vendorSettings } from "./vendor-config.js";

/** The licence modes; "Sub" is how the official client writes SUB (equinix/ne-go's DeviceLicenseModeSubscription). */
export const LICENSE_MODES = ["SUB", "BYOL", "Sub"] as const;
/**
 * The management types. The specification's PROVIDER-CONFIGURED is the type the official description, the
 * official client and real answers call EQUINIX-CONFIGURED (equinix/ne-go's DeviceManagementTypeEquinix, its
 * recorded device ne_device_get_resp.json); a configuration may use either name.
 */
export const MANAGEMENT_TYPES = ["SELF-CONFIGURED", "EQUINIX-CONFIGURED", "PROVIDER-CONFIGURED"] as const;

/** A management type in its comparable form: one name for the provider-managed type, the one netform sends. */
export function managementTypeForm(v: unknown): unknown {
  const type = enumeration(v);
  return type === "PROVIDER-CONFIGURED" ? "EQUINIX-CONFIGURED" : type;
}

/** A licence mode as the official client sends it ("Sub", "BYOL"), whatever case the configuration wrote. */
export const licenseModeSent = (v: unknown): unknown => (enumeration(v) === "SUB" ? "Sub" : enumeration(v));
export const CONNECTIVITY = ["INTERNET-ACCESS", "PRIVATE", "INTERNET-ACCESS-WITH-PRVT-MGMT"] as const;
export const THROUGHPUT_UNITS = ["Mbps", "Gbps"] as const;
/** The terms, in months, the service offers every device (the official description's device update). */
export const TERM_LENGTHS: readonly number[] = [1, 12, 24, 36];

/** 1 to 5 recipients of life-cycle mail (section 8). */
export const MIN_DEVICE_RECIPIENTS = 1;
export const MAX_DEVICE_RECIPIENTS = 5;

// The vendor settings' fields, forms, secrets and rules are in vendor-config.ts.
export { HOST_NAME_PREFIX, NODE_VENDOR_CONFIG_FIELDS, VENDOR_CONFIG_FIELDS, VENDOR_CONFIG_SECRETS } from "./vendor-config.js";

const vendorConfig = lazily(() => vendorSettings(VENDOR_CONFIG_FIELDS));

const notifications = () =>
  z
    .array(email())
    .min(MIN_DEVICE_RECIPIENTS, { error: `notifications needs ${MIN_DEVICE_RECIPIENTS} to ${MAX_DEVICE_RECIPIENTS} email addresses` })
    .max(MAX_DEVICE_RECIPIENTS, { error: `notifications takes ${MIN_DEVICE_RECIPIENTS} to ${MAX_DEVICE_RECIPIENTS} email addresses` });

const deviceName = () => text(3, 50, "virtualDeviceName");
const sshUsers = () =>
  z.array(z.strictObject({ sshUsername: z.string().min(1), sshPassword: z.string().optional().describe("sensitive"), sshUserUuid: uuid().optional(), action: z.enum(["CREATE", "UPDATE", "DELETE"]).optional() }));
const userPublicKey = () => z.strictObject({ username: z.string().min(1), keyName: z.string().min(1) });
const aclDetails = () => z.array(z.strictObject({ interfaceType: z.string().min(1), uuid: uuid() }));
const licenseToken = () => z.string().regex(/^[A-Za-z0-9]{8}$/, { error: "licenseToken must be 8 letters and digits" });

export const deviceSecondarySpec = lazily(() =>
  z.strictObject({
    virtualDeviceName: deviceName().optional().describe("default: the resource name followed by -secondary"),
    metroCode: metroCode(),
    notifications: notifications(),
    accountNumber: digits("accountNumber").optional().describe("default: the primary's account"),
    accountReferenceId: z.string().optional(),
    version: z.string().min(1).optional(),
    additionalBandwidth: z.int().min(0).optional(),
    licenseFileId: z.string().optional(),
    licenseToken: licenseToken().optional(),
    day0TextFileId: z.string().optional(),
    aclDetails: aclDetails().optional(),
    sshUsers: sshUsers().optional(),
    hostNamePrefix: hostNamePrefix().optional(),
    siteId: z.string().optional(),
    systemIpAddress: ipAddress().optional(),
    vendorConfig: vendorConfig().optional(),
    sshInterfaceId: z.string().optional(),
    smartLicenseUrl: z.string().optional(),
    cloudInitFileId: z.string().optional(),
    purchaseOrderNumber: z.string().optional().describe("default: the primary's"),
    orderReference: z.string().optional().describe("default: the primary's"),
    // Not in the specification's list of a secondary's fields; the official client sends it
    // (equinix/ne-go's SecondaryDeviceRequest), and the incumbent's add-a-secondary example writes one.
    userPublicKey: userPublicKey().optional().describe("default: the primary's"),
  }),
);

export const schema = lazily(() =>
  z.strictObject({
    virtualDeviceName: deviceName().optional().describe("display name, 3 to 50 characters; default: the resource name"),
    deviceTypeCode: z.string().min(1).describe("e.g. C8000V"),
    metroCode: metroCode(),
    packageCode: z.string().min(1).optional(),
    version: z.string().min(1),
    licenseMode: z.enum(LICENSE_MODES).describe("SUB (or Sub, as the service answers) or BYOL"),
    deviceManagementType: z.enum(MANAGEMENT_TYPES).describe("SELF-CONFIGURED, or EQUINIX-CONFIGURED (PROVIDER-CONFIGURED in the specification: the same type)"),
    core: z.int().min(1, { error: "core must be a positive integer" }),
    termlength: digits("termlength")
      .refine((months) => TERM_LENGTHS.includes(Number(months)), { error: `termlength must be one of ${TERM_LENGTHS.join(", ")} (months)` })
      .optional()
      .describe("term in months: 1, 12, 24 or 36 (the create body spells it so)"),
    notifications: notifications().describe("1 to 5 addresses for life-cycle mail"),
    accountNumber: digits("accountNumber").optional().describe("default: provider.accountNumber"),
    accountReferenceId: z.string().optional(),
    projectId: z.string().min(1).optional().describe("default: provider.projectId"),
    agreeOrderTerms: z.boolean().optional(),
    hostNamePrefix: hostNamePrefix().optional(),
    licenseCategory: z.string().optional(),
    licenseFileId: z.string().optional(),
    licenseToken: licenseToken().optional(),
    day0TextFileId: z.string().optional(),
    sshUsers: sshUsers().optional(),
    throughput: z.int().min(1).optional(),
    throughputUnit: z.enum(THROUGHPUT_UNITS).optional(),
    tier: z.int().min(0, { error: "tier must be 0 to 3" }).max(3, { error: "tier must be 0 to 3" }).optional(),
    orderingContact: z.string().optional(),
    aclDetails: aclDetails().optional(),
    additionalBandwidth: z.int().min(0).optional().describe("Mbps; default 15"),
    interfaceCount: z.int().min(1).optional(),
    siteId: z.string().optional(),
    systemIpAddress: ipAddress().optional(),
    vendorConfig: vendorConfig().optional(),
    userPublicKey: userPublicKey().optional().describe("the user and the key (an sshKeys keyName) that log in to the device"),
    ipType: z.enum(["STATIC"]).optional().describe("deprecated; always STATIC"),
    sshInterfaceId: z.string().optional().describe("self-configured devices only"),
    smartLicenseUrl: z.string().optional(),
    diverseFromDeviceUuid: uuid().optional().describe("single devices only"),
    clusterDetails: z
      .strictObject({
        clusterName: z.string().min(1),
        clusterNodeDetails: z
          .strictObject(
            Object.fromEntries(
              ["node0", "node1"].map((n) => [n, z.strictObject({ licenseFileId: z.string().optional(), licenseToken: licenseToken().optional(), vendorConfig: vendorSettings(NODE_VENDOR_CONFIG_FIELDS).optional() }).optional()]),
            ),
          )
          .optional(),
      })
      .optional(),
    primaryDeviceUuid: uuid().optional().describe("adds this device as the secondary of an existing primary"),
    connectivity: z.enum(CONNECTIVITY).optional(),
    channelPartner: z.string().optional(),
    cloudInitFileId: z.string().optional(),
    purchaseOrderNumber: z.string().optional(),
    orderReference: z.string().optional(),
    generateDefaultPassword: z.boolean().optional().describe("the service generates the device's first admin password"),
    secondary: deviceSecondarySpec().optional().describe("the redundant device of a pair created together"),
  }),
);
