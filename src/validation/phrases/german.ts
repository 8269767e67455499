import { phrase, type PhraseSet } from "./phrase-set.ts";

const ACT = "(?:prüfen|überprüfen|nachsehen|nachschauen|ansehen|anschauen|schauen|durchsuchen|suchen|lesen|öffnen|ausführen|untersuchen|analysieren|auflisten|aufrufen|starten|holen|abrufen|zählen|berechnen|testen|kontrollieren|checken|verifizieren|herausfinden|finden|durchgehen|anfragen)";

/** German. */
export const GERMAN: PhraseSet = {
  language: "de",
  promise: [
    phrase(String.raw`\b(?:ich werde|ich will|wir werden|lass(?:t)? (?:mich|uns)|lassen sie (?:mich|uns)|ich möchte jetzt)\b(?:[^.!?]|\.(?=\w)){0,70}\b${ACT}\b`),
    phrase(String.raw`\bich (?:prüfe|überprüfe|schaue|sehe|suche|durchsuche|lese|öffne|führe|starte|hole|rufe|untersuche|analysiere|kontrolliere)\b(?:[^.!?]|\.(?=\w)){0,60}\b(?:jetzt|gleich|sofort|kurz|nun|mal)\b`),
    phrase(String.raw`\b(?:jetzt|gleich|sofort|nun)\b(?:[^.!?]|\.(?=\w)){0,15}\b(?:prüfe|schaue|suche|lese|öffne|starte|führe|hole|untersuche) ich\b`),
    phrase(String.raw`\b(?:einen (?:moment|augenblick)|moment bitte|bitte warten)\b`),
  ],
  presented: [
    phrase(String.raw`\bhier (?:ist|sind) (?:die|das|der) (?:ergebnisse?|ausgabe|inhalt|treffer|suchergebnisse|datei|liste|zeilen)\b`),
    phrase(String.raw`\b(?:die (?:datei|funktion|suche|ausgabe|abfrage|liste)|der (?:code|befehl|ordner|aufruf|inhalt)|das (?:ergebnis|verzeichnis|tool|werkzeug|log))(?:\s+[\x60"'„]?[\w./-]+[\x60"'“]?)?\s+(?:enthält|zeigt|zeigte|liefert|lieferte|ergab|ergibt|gibt|gab|listet|lautet)\b`),
    phrase(String.raw`\bich habe\b(?:[^.!?]|\.(?=\w)){0,70}\b(?:gefunden|gelesen|geprüft|überprüft|durchsucht|gesucht|ausgeführt|geöffnet|nachgesehen|nachgeschaut|angesehen|aufgelistet|abgerufen|erstellt|untersucht|kontrolliert)\b`),
    phrase(String.raw`\b(?:laut|gemäß|nach) (?:der|dem) (?:datei|ausgabe|suche|ergebnis|suchergebnis|log)\b`),
    phrase(String.raw`^(?:ausgabe|ergebnis|ergebnisse|suchergebnisse)\s*:`),
  ],
  outputClaim: [
    phrase(String.raw`^(?:ausgabe|ergebnis|rückgabe)\s*:`),
    phrase(String.raw`\b(?:das|dies|es|der code|der aufruf|die suche|der block|das skript)\s+(?:gibt|liefert|ergibt|zeigt|druckt|gab|lieferte|ergab|zeigte|wird)\b(?:[^.!?]|\.(?=\w)){0,60}\b(?:aus|zurück|aus:|zurück:)?`),
  ],
  answerClaim: [phrase(String.raw`\b(?:die (?:endgültige )?antwort (?:ist|lautet)|endgültige antwort\s*:|antwort\s*:)`)],
  spawnClaim: [
    phrase(String.raw`\b(?:ich habe|wir haben)\b(?:[^.!?]|\.(?=\w)){0,60}\b(?:teilsitzung|untersitzung|sub-?session|unteragent|sub-?agent|hintergrundaufgabe|hintergrund-?job|kindsitzung|teilaufgabe|worker|sub-?call|unteraufruf|rlm_query|llm_query)\w*\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:gestartet|erstellt|angelegt|gespawnt|beauftragt|eingerichtet|losgeschickt|delegiert)\b`),
    phrase(String.raw`\b(?:teilsitzung|untersitzung|sub-?session|unteragent|sub-?agent|hintergrundaufgabe|kindsitzung|worker)\w*\s+(?:wurde|wurden|ist|sind|läuft|laufen)\s+(?:bereits |jetzt |nun |schon )?(?:gestartet|erstellt|im gange|aktiv|läuft|gespawnt)?\b`),
    phrase(String.raw`\b(?:an|einer?|den|die) (?:teilsitzung|unteragent|sub-?agent|kindsitzung|worker)\w* (?:delegiert|übergeben|weitergegeben)\b`),
  ],
  acknowledgesFailure: [
    phrase(String.raw`\b(?:fehlgeschlagen|schlug fehl|fehler|konnte nicht|konnten nicht|nicht möglich|nicht gefunden|unvollständig|teilweise|fehlt|fehlen|budget|abgelehnt|zeitüberschreitung|nicht verfügbar|leider|ungeprüft)\b`),
  ],
  negation: phrase(String.raw`\b(?:nicht|kein|keine|keinen|nie|noch nicht|ohne)\b`),
};
