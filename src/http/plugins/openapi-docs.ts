// The OpenAPI document, generated from the route schemas (/v1/openapi.json), and the human
// reference over it (/docs). At the root, so the document sees every route registered after it.
import swagger from '@fastify/swagger';
import { hoistNamedSchemas } from '../schemas/openapi-components.ts';
import { registerDocs } from './swagger-ui.ts';
import { unencapsulated } from './unencapsulated.ts';

export const openApiDocs = unencapsulated<{ publicBaseUrl: string }>(async (app, { publicBaseUrl }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'qrtrack API', version: '1.0.0', description: 'Dynamic QR codes with honest scan statistics.' },
      servers: [{ url: publicBaseUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key: qrt_…' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'qrtrack_session',
            description: 'Web app session; state-changing requests also need X-CSRF-Token',
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    // Schemas named in src/http/schemas/qr-items.ts (and in any route) become components.schemas and $refs.
    transformObject: (doc) => ('openapiObject' in doc ? hoistNamedSchemas(doc.openapiObject) : doc.swaggerObject),
  });
  await registerDocs(app);
  // Outside the /v1 scope: the document needs no key and is not rate limited.
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
