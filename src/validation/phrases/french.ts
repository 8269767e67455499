import { phrase, type PhraseSet } from "./phrase-set.ts";

const ACT = "(?:vérifier|regarder|chercher|rechercher|lire|ouvrir|exécuter|lancer|examiner|analyser|lister|inspecter|consulter|parcourir|tester|compter|calculer|récupérer|contrôler|jeter un (?:œil|oeil|coup d'œil|coup d'oeil)|explorer|fouiller|interroger)";

/** French. */
export const FRENCH: PhraseSet = {
  language: "fr",
  promise: [
    phrase(String.raw`\b(?:je vais|nous allons|laissez-moi|laisse-moi|permettez-moi|je m'en vais|allons|je m'occupe de)\b(?:[^.!?]|\.(?=\w)){0,50}\b${ACT}\b`),
    phrase(String.raw`\bje (?:vérifie|regarde|cherche|recherche|lis|ouvre|lance|exécute|examine|consulte|parcours)\b(?:[^.!?]|\.(?=\w)){0,50}\b(?:maintenant|tout de suite|immédiatement|de suite|dès maintenant)\b`),
    phrase(String.raw`\b(?:un (?:instant|moment)(?: s'il vous plaît)?|patientez)\b`),
  ],
  presented: [
    phrase(String.raw`\b(?:voici|voilà) (?:les|le|la|l') ?(?:résultats?|sortie|contenu|correspondances|fichier|liste|lignes)\b`),
    phrase(String.raw`\b(?:le fichier|la fonction|la recherche|la sortie|le code|la commande|le dossier|le répertoire|l'outil|le résultat|la requête)(?:\s+[\x60"'«]?[\w./-]+[\x60"'»]?)?\s+(?:contient|montre|affiche|renvoie|retourne|a renvoyé|a retourné|a donné|donne|liste|indique|a montré)\b`),
    phrase(String.raw`\bj'ai\b(?:[^.!?]|\.(?=\w)){0,50}\b(?:trouvé|lu|vérifié|cherché|recherché|exécuté|ouvert|consulté|examiné|listé|parcouru|inspecté|récupéré|créé|regardé|analysé)\b`),
    phrase(String.raw`\b(?:d'après|selon) (?:le fichier|la sortie|la recherche|les résultats|le journal|l'outil)\b`),
    phrase(String.raw`^(?:sortie|résultat|résultats)\s*:`),
  ],
  outputClaim: [
    phrase(String.raw`^(?:sortie|résultat)\s*:`),
    phrase(String.raw`\b(?:cela|ceci|ça|il|le code|l'appel|la recherche|le bloc|le script)\s+(?:affiche|renvoie|retourne|donne|produit|a affiché|a renvoyé|a retourné|a donné|va afficher|va renvoyer|affichera|renverra|retournera)\b`),
  ],
  answerClaim: [phrase(String.raw`\b(?:la réponse (?:finale )?(?:est|:)|réponse finale\s*:)`)],
  spawnClaim: [
    phrase(String.raw`\b(?:j'ai|nous avons)\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:lancé|démarré|créé|délégué|ouvert|déclenché|confié)\b(?:[^.!?]|\.(?=\w)){0,40}\b(?:sous-sessions?|sous-agents?|sessions? enfants?|tâches? (?:de fond|en arrière-plan)|workers?|sous-tâches?|sous-appels?|rlm_query|llm_query)\b`),
    phrase(String.raw`\b(?:la |une |les )?(?:sous-sessions?|sous-agents?|sessions? enfants?|tâches? en arrière-plan)\s+(?:est|sont|a été|ont été)\s+(?:déjà |maintenant )?(?:en cours|lancée?s?|démarrée?s?|créée?s?)\b`),
  ],
  acknowledgesFailure: [
    phrase(String.raw`\b(?:échoué|échec|erreur|impossible|n'a pas pu|pas pu|introuvable|incomplète?s?|partielle?s?|manque|manquant|budget|refusée?s?|délai dépassé|indisponible|malheureusement)\b`),
  ],
  negation: phrase(String.raw`\b(?:pas|jamais|aucune?|sans|ne|n')\b`),
};
