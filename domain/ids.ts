/** A record id as the portal writes them (a UUID, any version), in any letter case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a record id, so a `uuid` column can be compared with it without a failing cast. */
export const isUuid = (value: string): boolean => UUID.test(value);
