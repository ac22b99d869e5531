// Composition root: the repositories and domain services one app instance uses.
// Built once per process from the config and an open database.
import type { Config } from './config.ts';
import { ApiKeysRepository } from './db/api-keys-repository.ts';
import type { Db } from './db/database.ts';
import { QrItemsRepository } from './db/qr-items-repository.ts';
import { StatsRepository } from './db/stats-repository.ts';
import type { QrDesign } from './domain/design.ts';

export interface AppServices {
  config: Config;
  db: Db;
  keys: ApiKeysRepository;
  items: QrItemsRepository;
  stats: StatsRepository;
  /** Called after an item's content, state or existence changed, so cached short links are dropped. */
  onItemChanged(code: string): void;
  warningsFor(design: QrDesign): string[];
}

export function createServices(config: Config, db: Db): AppServices {
  return {
    config,
    db,
    keys: new ApiKeysRepository(db),
    items: new QrItemsRepository(db),
    stats: new StatsRepository(db),
    onItemChanged: () => {},
    warningsFor: () => [],
  };
}
