import { phrase, type PhraseSet } from "./phrase-set.ts";

const ACT = "(?:revisar|comprobar|verificar|buscar|leer|abrir|ejecutar|examinar|analizar|listar|inspeccionar|consultar|mirar|ver|explorar|probar|contar|calcular|obtener|lanzar|recuperar|investigar|echar un vistazo|correr)";

/** Spanish. */
export const SPANISH: PhraseSet = {
  language: "es",
  promise: [
    phrase(String.raw`\b(?:voy a|vamos a|déjame|dejame|permíteme|permiteme|iré a|procedo a|procederé a|a continuación voy a)\b(?:[^.!?]|\.(?=\w)){0,40}\b${ACT}\b`),
    phrase(String.raw`\b(?:reviso|compruebo|busco|leo|abro|ejecuto|miro|consulto|verifico)\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:ahora|ahora mismo|enseguida|de inmediato|ya)\b`),
    phrase(String.raw`\b(?:un momento|dame un (?:momento|segundo))\b`),
  ],
  presented: [
    phrase(String.raw`\baquí (?:está|están|tienes) (?:los|el|la|las) (?:resultados?|salida|contenido|coincidencias|archivo|lista|líneas)\b`),
    phrase(String.raw`\b(?:el archivo|la función|la búsqueda|la salida|el código|el comando|la carpeta|el directorio|la herramienta|el resultado|la consulta)(?:\s+[\x60"'«]?[\w./-]+[\x60"'»]?)?\s+(?:contiene|muestra|devuelve|devolvió|da|dio|lista|indica|mostró|arroja|arrojó)\b`),
    phrase(String.raw`\b(?:he|hemos)\s+(?:encontrado|leído|revisado|buscado|ejecutado|abierto|consultado|examinado|listado|comprobado|verificado|inspeccionado|creado|obtenido|analizado)\b`),
    phrase(String.raw`\b(?:encontré|leí|revisé|busqué|ejecuté|abrí|consulté|comprobé|verifiqué|analicé)\b`),
    phrase(String.raw`\b(?:según|de acuerdo con) (?:el archivo|la salida|la búsqueda|los resultados|el registro|la herramienta)\b`),
    phrase(String.raw`^(?:salida|resultado|resultados)\s*:`),
  ],
  outputClaim: [
    phrase(String.raw`^(?:salida|resultado)\s*:`),
    phrase(String.raw`\b(?:esto|eso|el código|la llamada|la búsqueda|el bloque|el script)\s+(?:imprime|devuelve|muestra|da|produce|imprimió|devolvió|mostró|dio|produjo|va a imprimir|va a devolver|imprimirá|devolverá|mostrará)\b`),
  ],
  answerClaim: [phrase(String.raw`\b(?:la respuesta (?:final )?(?:es|:)|respuesta final\s*:)`)],
  spawnClaim: [
    phrase(String.raw`\b(?:he|hemos|ya he)\s+(?:iniciado|lanzado|creado|delegado|arrancado|abierto|puesto en marcha)\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:subsesi[oó]n(?:es)?|sub-sesi[oó]n(?:es)?|subagentes?|sesi[oó]n(?:es)? hijas?|tareas? en segundo plano|trabajador(?:es)?|workers?|subtareas?|subllamadas?|rlm_query|llm_query)\b`),
    phrase(String.raw`\b(?:inicié|lancé|creé|delegué|arranqué)\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:subsesi[oó]n(?:es)?|subagentes?|sesi[oó]n(?:es)? hijas?|tareas? en segundo plano|subtareas?|subllamadas?|rlm_query|llm_query)\b`),
    phrase(String.raw`\b(?:subsesi[oó]n(?:es)?|subagentes?|sesi[oó]n(?:es)? hijas?|tareas? en segundo plano)\s+(?:ya )?(?:está|están|se está|se están)\s+(?:ya )?(?:en marcha|ejecutando|ejecutándose|corriendo|funcionando|iniciadas?|trabajando)\b`),
  ],
  acknowledgesFailure: [
    phrase(String.raw`\b(?:falló|fallaron|fallido|fallida|error|errores|no se pudo|no pude|no fue posible|imposible|no encontr\w*|incomplet[oa]s?|parcial(?:es)?|falta|faltan|presupuesto|rechazad[oa]s?|tiempo de espera|no disponible|lamentablemente|por desgracia)\b`),
  ],
  negation: phrase(String.raw`\b(?:no|nunca|ningún|ninguna|sin|todavía no|aún no)\b`),
};
