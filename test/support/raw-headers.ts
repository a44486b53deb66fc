// A request whose header lines are sent exactly as listed, repeats included (node's flat header
// list; node then adds no Host of its own): for what a proxy or a hostile client may send and
// fetch or the gateway's test helpers cannot, such as two Host or two Authorization lines.

import { request } from 'node:http';

export function sendRawHeaders(
  url: string,
  headers: string[],
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
