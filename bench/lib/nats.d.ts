/** Types of the parts of bench/lib/nats.js that test/helpers/nats.ts shares. */
export interface NatsNodeLayout {
  name: string;
  port: number;
  monitorPort: number;
  clusterPort?: number | undefined;
  dir: string;
}
export function natsServerBinary(): string;
export function distinctPorts(count: number): Promise<number[]>;
export function configText(node: NatsNodeLayout, nodes: NatsNodeLayout[], opts?: { cluster?: string; token?: string | undefined }): string;
export function notReady(node: NatsNodeLayout): Promise<string | null>;
export function startNats(opts?: { nodes?: number }): Promise<{ urls: string[]; servers: string; close(): Promise<void> }>;
