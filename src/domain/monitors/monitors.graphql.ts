import type { GraphQLKit } from '../../module/graphql.js';
import type { MonitorService } from './monitor.service.js';

export function monitorGraphQL(_kit: GraphQLKit, _monitors: MonitorService): void {}
