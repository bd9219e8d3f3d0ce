import { z } from "zod";
const s = z.object({ policy: z.any().describe("x"), b: z.string() }).strict().superRefine(() => {});
console.log(JSON.stringify(z.toJSONSchema(s, { io: "input" })));
console.log(s.constructor.name, typeof (s as any).shape);
const e = z.string().default("24h").transform((v) => v.length);
console.log(JSON.stringify(z.toJSONSchema(z.object({ e }), { io: "input", unrepresentable: "any" })), e.parse(undefined));
