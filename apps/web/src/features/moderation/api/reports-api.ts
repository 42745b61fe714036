import { type CreateReportBody, reportSchema } from '@haversack/contracts';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** POST /reports: tell the staff about public content (one open report per person and thing). */
export async function sendReport(body: CreateReportBody) {
  return (await apiRequest(`${API_V1}/reports`, { method: 'POST', body, schema: reportSchema, toast: false }))
    .data;
}
