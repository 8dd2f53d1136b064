import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

export const RELEASE_STATUSES = ['draft', 'published', 'archived'] as const;

export const releaseEntity = () =>
  new Entity({
    model: model('release'),
    attributes: {
      releaseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      version: { type: 'string', required: true },
      releaseNotes: { type: 'string' },
      filePath: { type: 'string', required: true },
      fileName: { type: 'string', required: true },
      fileSize: { type: 'number', required: true },
      status: { type: RELEASE_STATUSES, required: true },
      downloadCount: { type: 'number', required: true, default: 0 },
      tested: { type: 'string' },
      requires: { type: 'string' },
      requiresPhp: { type: 'string' },
      releasedAt: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['releaseId']),
      byProduct: globalIndex(1, ['productId'], ['createdAt', 'releaseId']),
    },
  });
