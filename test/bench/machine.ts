/** Describes the machine and runtimes a benchmark ran on, for the report header. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem, arch } from 'node:os';

export interface MachineInfo {
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  /** Node running the load generator (this process). */
  driverNode: string;
  /** Node running the functions (child processes). */
  functionNode: string;
  /** 1-minute load average when the run started and ended: other work on the machine skews every number. */
  loadStart: number;
  loadEnd?: number;
}

/** Collects the machine description; `functionNode` is the binary the children run on. */
export function describeMachine(functionNode: string): MachineInfo {
  const list = cpus();
  let childVersion: string;
  try {
    childVersion = execFileSync(functionNode, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    childVersion = 'unavailable';
  }
  return {
    os: `${platform()} ${release()} ${arch()}`,
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    driverNode: process.version,
    functionNode: childVersion,
    loadStart: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** The current 1-minute load average. */
export const currentLoad = () => Math.round(loadavg()[0]! * 100) / 100;
