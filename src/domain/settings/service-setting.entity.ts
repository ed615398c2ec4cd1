import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/** Deployment-wide values every process must agree on (for example the URL signing secret). */
export class ServiceSetting {
  key!: string;
  value!: string;
  createdAt: Date = new Date();
}

export const ServiceSettingSchema = new EntitySchema<ServiceSetting>({
  class: ServiceSetting,
  tableName: 'service_settings',
  properties: {
    key: { type: 'string', columnType: 'text', primary: true },
    value: { type: 'string', columnType: 'text' },
    createdAt: columns.createdAt(),
  },
});
