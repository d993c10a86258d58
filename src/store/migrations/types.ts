/** One numbered schema migration: its SQL runs in a transaction that sets `user_version` to `version`. */
export interface Migration {
  version: number;
  name: string;
  up: string;
}
