import type { CommandDeps } from './index';

export function showLogCommand(deps: CommandDeps): void {
  deps.log.show(true);
}
