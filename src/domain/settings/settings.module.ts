import { defineModule } from '../../module/app-module.js';
import { ServiceSettingSchema } from './service-setting.entity.js';

/** Deployment-wide values kept in the database (the generated signing secret). */
export const settingsModule = defineModule({
  name: 'settings',
  entities: [ServiceSettingSchema],
  services: () => ({}),
});
